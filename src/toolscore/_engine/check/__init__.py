"""Stage 6, check.

What a test asserts (assertions, trajectories, conversations, streams, budgets, honesty).
"""
