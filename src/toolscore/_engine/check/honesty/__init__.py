"""Honesty checks: does what the agent told the user match what its tools did?"""
