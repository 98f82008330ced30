"""The validators behind ``toolscore.validators``.

Did a call's recorded result do what it should?
"""
