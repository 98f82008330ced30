"""Stage 4, score: metrics, weights, the evaluation result and its rendering."""
