"""toolscore: did the agent call the right tools, with the right arguments, in the right order?"""
