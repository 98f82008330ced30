"""Test doubles shared by the test suites (the fake OpenAI/Azure server)."""
