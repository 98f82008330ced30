"""``FakeTools``: registered answers for an agent's tools, and the record of every call."""

from __future__ import annotations

import asyncio
import inspect
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from toolscore._engine.read.shapes import read_arguments
from toolscore._engine.read.tool_call import ToolCall
from toolscore._engine.score.render import format_value
from toolscore._fakes import answer, schemas, serve
from toolscore._fakes.errors import ToolError, UnexpectedToolCall
from toolscore._fakes.registration import Registration, closest
from toolscore._fakes.report import failure_text

__all__ = ["FakeTools"]


class FakeTools:
    """Fake tools for an agent under test: registered answers, and a record of every call.

    Register what each tool answers with :meth:`add` (arguments may hold matchers); the first
    registration that matches a call answers it, and one used up (``times``) stops matching.
    Every call lands in :attr:`calls` as a :class:`~toolscore.adapters.base.ToolCall`, ready
    for :func:`toolscore.evaluate`, :func:`toolscore.match_trajectory` and
    :func:`toolscore.assert_budget`. :meth:`verify` fails on a registration never used (not
    ``optional``) and on a call no registration matched; the ``toolscore_tools`` fixture runs
    it at teardown.

    Example:
        >>> from toolscore import Regex
        >>> tools = FakeTools()
        >>> tools.add("get_weather", {"city": Regex("NYC|JFK")}, result={"temp_c": 21})
        >>> tools.call("get_weather", {"city": "NYC"})
        {'temp_c': 21}
        >>> call = tools.calls[0]
        >>> call.tool, call.args, call.result
        ('get_weather', {'city': 'NYC'}, {'temp_c': 21})
        >>> tools.verify()
    """

    def __init__(self) -> None:
        self._registrations: list[Registration] = []
        self._calls: list[ToolCall] = []
        self._unexpected: list[tuple[int, list[str]]] = []
        # Calls over MCP whose handler raised something other than ToolError: a bug in the
        # fake that only the agent saw (as an error result), so teardown reports it.
        self._crashed: list[ToolCall] = []
        # The MCP server answers on its own thread: matching and recording take this lock.
        self._lock = threading.Lock()

    # -- registering ---------------------------------------------------------------------
    def add(
        self,
        tool: str,
        args: Mapping[str, Any] | Any = None,
        *,
        result: Any = None,
        error: str | None = None,
        delay: float = 0.0,
        handler: Callable[[dict[str, Any]], Any] | None = None,
        times: int | None = None,
        optional: bool = False,
        schema: Mapping[str, Any] | None = None,
    ) -> None:
        """Register an answer of ``tool``.

        Args:
            tool: the tool's name.
            args: the arguments it answers: a dict whose values may be matchers (``ANY``,
                ``Regex``, ``Approx``...), a matcher for the whole dict, or None (any).
            result: what the call returns.
            error: a message: the call fails with :class:`~toolscore.fakes.ToolError`.
            delay: seconds to wait before answering.
            handler: ``handler(args)`` computes the result (stateful fakes); it may raise
                :class:`~toolscore.fakes.ToolError`, and may be async for :meth:`acall`.
            times: how often it answers (None: always); used up, it no longer matches.
            optional: no failure when it is never used.
            schema: the JSON schema of the tool's arguments, for :meth:`openai_tools` and
                the MCP server (else one is derived from the registrations).

        Raises:
            TypeError, ValueError: an argument is of the wrong kind; the message names it.

        Example:
            >>> tools = FakeTools()
            >>> notes = {}
            >>> tools.add("create_note", handler=lambda a: notes.setdefault(a["id"], a["text"]))
            >>> tools.call("create_note", {"id": 1, "text": "hi"}), notes
            ('hi', {1: 'hi'})
        """
        registration = Registration(
            len(self._registrations) + 1,
            tool,
            args,
            result=result,
            error=error,
            delay=delay,
            handler=handler,
            times=times,
            optional=optional,
            schema=schema,
        )
        with self._lock:
            self._registrations.append(registration)

    # -- calling -------------------------------------------------------------------------
    def call(self, tool: str, args: Mapping[str, Any] | str | None = None) -> Any:
        """Answer one call as registered and record it.

        Args:
            tool: the tool's name.
            args: its arguments (a dict, JSON text as providers send it, or None).

        Returns:
            The registration's ``result``, or what its handler returned.

        Raises:
            ToolError: the registration fails the call (``error=``, or its handler raised it).
            UnexpectedToolCall: no registration matches; the test fails at teardown too.

        Example:
            >>> tools = FakeTools()
            >>> tools.add("search", {"q": "x"}, error="index offline")
            >>> tools.call("search", {"q": "x"})
            Traceback (most recent call last):
            ...
            toolscore.fakes.ToolError: index offline
        """
        return self._call(tool, args, None)

    def _call(self, tool: Any, args: Any, call_id: str | None) -> Any:
        record, registration, started = self._receive(tool, args, call_id)
        if registration.delay:
            time.sleep(registration.delay)
        with _recording(record, started):
            value = _answer(registration, record)
            if inspect.isawaitable(value):
                _close(value)
                raise TypeError(
                    f"The handler of {registration.describe()} is async: call the tool "
                    "with 'await tools.acall(...)', or give a plain function"
                )
            record.result = value
        return value

    async def acall(self, tool: str, args: Mapping[str, Any] | str | None = None) -> Any:
        """:meth:`call` for async agents: awaits the delay and an async handler.

        Example:
            >>> import asyncio
            >>> tools = FakeTools()
            >>> tools.add("search", result=["a"])
            >>> asyncio.run(tools.acall("search", {"q": "x"}))
            ['a']
        """
        return await self._acall(tool, args, None)

    async def _acall(
        self, tool: Any, args: Any, call_id: str | None, box: list[ToolCall] | None = None
    ) -> Any:
        record, registration, started = self._receive(tool, args, call_id)
        if box is not None:
            box.append(record)  # the caller learns which call failed
        if registration.delay:
            await asyncio.sleep(registration.delay)
        with _recording(record, started):
            value = _answer(registration, record)
            if inspect.isawaitable(value):
                value = await value
            record.result = value
        return value

    def outcome(self, tool: str, args: Any, call_id: str | None = None) -> tuple[bool, Any]:
        """``(failed, result or error message)`` of one call, never raising a tool failure:
        what an adapter sends back to the agent."""
        try:
            return False, self._call(tool, args, call_id)
        except (ToolError, UnexpectedToolCall) as exc:
            return True, str(exc)

    async def aoutcome(self, tool: str, args: Any, call_id: str | None = None) -> tuple[bool, Any]:
        """:meth:`outcome` for the MCP server, where an exception reaches no test: a handler
        that raises something else than ``ToolError`` answers with an error too, and the call
        fails :meth:`verify`."""
        box: list[ToolCall] = []
        try:
            return False, await self._acall(tool, args, call_id, box)
        except (ToolError, UnexpectedToolCall) as exc:
            return True, str(exc)
        except Exception as exc:
            with self._lock:
                self._crashed.extend(box)
            return True, f"The fake's handler raised {type(exc).__name__}: {exc}"

    def _receive(
        self, tool: Any, args: Any, call_id: str | None
    ) -> tuple[ToolCall, Registration, float]:
        """Record the call in arrival order and pick the registration that answers it."""
        if not isinstance(tool, str) or not tool:
            raise TypeError(f"call(tool): the tool's name as a non-empty string, got {tool!r}")
        arguments = _arguments(tool, args)
        started = time.perf_counter()
        metadata = {} if call_id is None else {"id": call_id}
        record = ToolCall(tool, arguments, timestamp=time.time(), metadata=metadata)
        with self._lock:
            self._calls.append(record)
            for registration in self._registrations:
                if registration.matches(tool, arguments):
                    registration.used += 1
                    return record, registration, started
            near = closest(self._registrations, tool, arguments)
            self._unexpected.append((len(self._calls) - 1, near))
        with _recording(record, started):
            raise UnexpectedToolCall(tool, arguments, near)

    # -- what happened -------------------------------------------------------------------
    def _registered(self) -> list[Registration]:
        """The registrations, in the order they were added (a copy)."""
        with self._lock:
            return list(self._registrations)

    @property
    def calls(self) -> list[ToolCall]:
        """Every call received, in arrival order: arguments, result or error, duration.

        A failed call has ``is_error`` true and its message in ``metadata["error"]``.
        """
        with self._lock:
            return list(self._calls)

    def failure_text(self) -> str | None:
        """What :meth:`verify` reports (None: every registration used, no unexpected call)."""
        with self._lock:
            unused = [r for r in self._registrations if r.used == 0 and not r.optional]
            unexpected = [(n, self._calls[n], near) for n, near in self._unexpected]
            number = {id(call): n for n, call in enumerate(self._calls)} if self._crashed else {}
            crashed = [(number[id(call)], call) for call in self._crashed]
        return failure_text(unused, unexpected, crashed)

    def verify(self) -> None:
        """Fail when a registration was never used, a call matched no registration, or a
        handler raised something other than :class:`~toolscore.fakes.ToolError`.

        Raises:
            AssertionError: the teardown message of the ``toolscore_tools`` fixture.
        """
        __tracebackhide__ = True
        text = self.failure_text()
        if text is not None:
            raise AssertionError(text)

    # -- plugging into an agent ----------------------------------------------------------
    def openai_tools(self) -> list[dict[str, Any]]:
        """The Chat Completions ``tools`` list: one function per registered tool.

        Example:
            >>> tools = FakeTools()
            >>> tools.add("get_weather", {"city": "NYC"}, result="sunny")
            >>> function = tools.openai_tools()[0].get("function")
            >>> function.get("name"), function.get("parameters").get("required")
            ('get_weather', ['city'])
        """
        return schemas.openai_tools(self._registered())

    def answer(self, tool_calls: Any) -> list[dict[str, Any]]:
        """Answer the tool calls of a provider response with that provider's result messages.

        Args:
            tool_calls: a response, a message, or a list of tool calls, in any shape toolscore
                reads (OpenAI Chat Completions or Responses, Anthropic, Gemini, LangChain,
                Pydantic AI, ``{"tool", "args"}`` dicts).

        Returns:
            The messages to append to the conversation: Chat Completions ``tool`` messages,
            Responses ``function_call_output`` items, one Anthropic ``user`` message of
            ``tool_result`` blocks, one Gemini ``user`` content of ``function_response``
            parts... A failed or unexpected call answers with the provider's error result.

        Example:
            >>> tools = FakeTools()
            >>> tools.add("search", result="3 hits")
            >>> tools.answer({"role": "assistant", "tool_calls": [{"id": "c1",
            ...     "type": "function", "function": {"name": "search", "arguments": "{}"}}]})
            [{'role': 'tool', 'tool_call_id': 'c1', 'content': '3 hits'}]
        """
        return answer.answer(self, tool_calls)

    def serve_mcp(self) -> AbstractContextManager[str]:
        """Serve the fake tools as a real MCP server (Streamable HTTP on 127.0.0.1).

        A context manager that yields the server's URL; the server, its thread and its port
        are gone when the block ends. Needs the ``mcp`` extra.

        Example:
            with toolscore_tools.serve_mcp() as url:
                run_my_agent(mcp_url=url)
        """
        return serve.serve_mcp(self)

    def __repr__(self) -> str:
        with self._lock:
            tools = sorted({r.tool for r in self._registrations})
            received = len(self._calls)
        return f"<FakeTools tools={tools!r} calls={received}>"


def _arguments(tool: str, args: Any) -> dict[str, Any]:
    if args is None:
        return {}
    if isinstance(args, Mapping):
        return dict(args)
    if isinstance(args, (str, bytes)):
        return read_arguments(args, tool)
    raise TypeError(
        f"call({tool!r}, args): the arguments as a dict (or JSON text), got "
        f"{type(args).__name__} {format_value(args)}"
    )


def _answer(registration: Registration, record: ToolCall) -> Any:
    """The handler's value (perhaps awaitable), or the registered result or error."""
    if registration.handler is not None:
        return registration.handler(dict(record.args or {}))
    if registration.error is not None:
        raise ToolError(registration.error)
    return registration.result


@contextmanager
def _recording(record: ToolCall, started: float) -> Iterator[None]:
    """Time the call; a failure lands in the record (``is_error``, ``metadata["error"]``)."""
    try:
        yield
    except BaseException as error:
        if isinstance(error, ToolError):
            message = error.message
        elif isinstance(error, UnexpectedToolCall):
            message = str(error)
        else:  # a handler's bug: its type is half the story
            message = f"{type(error).__name__}: {error}"
        if record.metadata is not None:
            record.metadata["is_error"] = True
            record.metadata["error"] = message or type(error).__name__
        raise
    finally:
        record.duration = time.perf_counter() - started


def _close(value: Any) -> None:
    close = getattr(value, "close", None)
    if callable(close):
        close()
