"""What a user's test module may import from toolscore without pytest collecting it."""

from __future__ import annotations

import pytest


def test_importing_test_agent_into_a_test_module_adds_no_tests(pytester: pytest.Pytester) -> None:
    # test_agent / test_agent_async start with "test_": without __test__ = False pytest would
    # collect them as tests of the user's module and error on their parameters.
    pytester.makepyfile(
        test_user="""
        import asyncio

        from toolscore import *  # noqa: F403
        from toolscore import test_agent, test_agent_async
        from toolscore.core import test_agent as core_test_agent

        EXPECTED = [{"tool": "search", "args": {"q": "cats"}}]

        def agent(prompt):
            return [{"tool": "search", "args": {"q": prompt}}]

        def test_my_agent():
            assert test_agent(agent, "cats", EXPECTED, min_score=0.9).score == 1.0

        def test_my_async_agent():
            async def run(prompt):
                return agent(prompt)

            result = asyncio.run(test_agent_async(run, "cats", EXPECTED, min_score=0.9))
            assert result.score == 1.0
        """
    )
    result = pytester.runpytest("-p", "no:cacheprovider", "--collect-only", "-q")
    result.stdout.fnmatch_lines(
        ["test_user.py::test_my_agent", "test_user.py::test_my_async_agent"]
    )
    result.stdout.no_fnmatch_line("*test_user.py::test_agent*")
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)
    result.stdout.no_fnmatch_line("*fixture 'agent' not found*")
