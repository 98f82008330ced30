"""Stage 3, align: the one-to-one pairing of expected calls with actual calls."""
