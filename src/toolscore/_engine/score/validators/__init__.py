"""The validators behind ``toolscore.validators``: did a call do what it should?"""
