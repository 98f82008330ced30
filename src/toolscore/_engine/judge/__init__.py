"""Stage 5, judge.

The tool-call judge's configuration, the Semantic matcher's verdicts, judged evaluation.
"""
