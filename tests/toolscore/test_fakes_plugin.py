"""The ``toolscore_tools`` fixture: teardown failures, optional registrations, lenient mode."""

from __future__ import annotations

import pytest

USED = """
from toolscore import ANY

def test_agent(toolscore_tools):
    toolscore_tools.add("get_weather", {"city": ANY}, result={"temp_c": 21})
    toolscore_tools.add("send_email", optional=True)
    assert toolscore_tools.call("get_weather", {"city": "Oslo"}) == {"temp_c": 21}
    assert [c.tool for c in toolscore_tools.calls] == ["get_weather"]
"""

UNUSED = """
def test_agent(toolscore_tools):
    toolscore_tools.add("get_weather", {"city": "NYC"}, result="sunny")
    toolscore_tools.add("send_email", {"to": "a@b.c"}, result="sent")
    toolscore_tools.call("get_weather", {"city": "NYC"})
"""

# The agent loop swallows the exception, as a real one turns it into an error result.
UNEXPECTED = """
from toolscore.fakes import UnexpectedToolCall

def test_agent(toolscore_tools):
    toolscore_tools.add("get_weather", {"city": "NYC"}, result="sunny", optional=True)
    try:
        toolscore_tools.call("get_weather", {"city": "Paris"})
    except UnexpectedToolCall:
        pass
"""


def test_a_test_that_uses_every_registration_passes(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(USED)
    pytester.runpytest("-W", "error::UserWarning").assert_outcomes(passed=1)


def test_an_unused_registration_fails_the_test_at_teardown_naming_it(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(UNUSED)
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            "*ERROR at teardown of test_agent*",
            "*The fake tools were not used as registered.",
            "*1 registration was never used:",
            "*#2 add('send_email', {'to': 'a@b.c'})",
        ]
    )
    assert "get_weather" not in result.stdout.str().split("never used:")[1].split("Hint")[0]


def test_an_unexpected_call_fails_even_when_the_agent_swallowed_it(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(UNEXPECTED)
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            "*1 call matched no registration (the agent got an error result):",
            "*call #1 get_weather(city='Paris')",
            "*closest: #1 add('get_weather', {'city': 'NYC'}, optional=True): city expected "
            "'NYC', got 'Paris'",
            "*Hint: register the call with toolscore_tools.add*",
        ]
    )


@pytest.mark.parametrize("how", ["option", "ini"])
def test_lenient_mode_turns_both_failures_into_warnings(
    pytester: pytest.Pytester, how: str
) -> None:
    pytester.makepyfile(test_unused=UNUSED, test_unexpected=UNEXPECTED)
    if how == "option":
        result = pytester.runpytest("--toolscore-fakes-lenient")
    else:
        pytester.makeini("[pytest]\ntoolscore_fakes_lenient = true\n")
        result = pytester.runpytest()
    result.assert_outcomes(passed=2, warnings=2)
    result.stdout.fnmatch_lines(
        [
            "*warnings summary*",
            "*UserWarning: The fake tools were not used as registered.*",
        ]
    )
    out = result.stdout.str()
    assert "#2 add('send_email'" in out and "call #1 get_weather(city='Paris')" in out


def test_each_test_gets_fresh_fakes(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        def test_one(toolscore_tools):
            toolscore_tools.add("a", result=1)
            toolscore_tools.call("a")

        def test_two(toolscore_tools):
            assert toolscore_tools.calls == []
            assert toolscore_tools.openai_tools() == []
        """
    )
    pytester.runpytest().assert_outcomes(passed=2)


def test_the_option_is_listed_in_help(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--help")
    result.stdout.fnmatch_lines(["*--toolscore-fakes-lenient*", "*toolscore_fakes_lenient*"])


def test_under_xdist_each_worker_fails_its_own_test_at_teardown(
    pytester: pytest.Pytester,
) -> None:
    pytest.importorskip("xdist")
    pytester.makepyfile(test_used=USED, test_unused=UNUSED, test_unexpected=UNEXPECTED)
    result = pytester.runpytest_subprocess("-p", "xdist", "-n", "2")
    result.assert_outcomes(passed=3, errors=2)
    out = result.stdout.str()
    assert "#2 add('send_email', {'to': 'a@b.c'})" in out
    assert "call #1 get_weather(city='Paris')" in out


def test_lenient_ini_false_still_fails(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(UNUSED)
    pytester.makeini("[pytest]\ntoolscore_fakes_lenient = false\n")
    pytester.runpytest().assert_outcomes(passed=1, errors=1)


def test_lenient_warnings_are_python_warnings_an_error_filter_can_raise(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(UNUSED)
    result = pytester.runpytest("--toolscore-fakes-lenient", "-W", "error::UserWarning")
    result.assert_outcomes(passed=1, errors=1)


def test_calls_over_mcp_fail_the_test_at_teardown_when_unexpected(
    pytester: pytest.Pytester,
) -> None:
    pytest.importorskip("mcp")
    pytester.makepyfile(
        """
        from toolscore.mcp import MCPHttpClient

        def test_agent(toolscore_tools):
            toolscore_tools.add("get_weather", {"city": "NYC"}, result="sunny")
            with toolscore_tools.serve_mcp() as url, MCPHttpClient(url, timeout=10) as client:
                assert not client.call_tool("get_weather", {"city": "NYC"}).is_error
                assert client.call_tool("get_weather", {"city": "Rome"}).is_error
            assert [c.args for c in toolscore_tools.calls] == [{"city": "NYC"}, {"city": "Rome"}]
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*call #2 get_weather(city='Rome')*"])
