"""scorekit: the shared engine behind ``toolscore`` and ``pytest_texts_score``.

Private to the distribution: the judge layer (backends, retries, the concurrency limit),
the judge cache and the reporting layer. The public faces import it; it imports neither.
"""

__all__: list[str] = []
