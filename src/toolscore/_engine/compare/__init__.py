"""Stage 2, compare.

How two values agree: the pure matchers, the one comparison rule, argument units.
"""
