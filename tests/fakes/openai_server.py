"""A real HTTP fake of the OpenAI and Azure chat-completions endpoints, on 127.0.0.1.

The server runs in a daemon thread (``ThreadingHTTPServer``, one thread per request) on an
ephemeral port. Tests drive it through the real ``openai`` SDK; nothing is mocked.

Endpoints:
    ``POST {anything}/chat/completions``                  the OpenAI API under any base path
    ``POST /openai/deployments/{name}/chat/completions``  Azure (``?api-version=...``)

Use the ``fake_llm`` fixture (``tests/conftest.py``)::

    def test_something(fake_llm):
        fake_llm.base_url         # "http://127.0.0.1:PORT/v1"  -> --llm-base-url / OPENAI_BASE_URL
        fake_llm.azure_endpoint   # "http://127.0.0.1:PORT"     -> --llm-endpoint
        fake_llm.latency = 0.2    # seconds before every reply (default 0)
        fake_llm.script(status(429, retry_after="0"), content("```json\\n[\\"Q?\\"]\\n```"))
        fake_llm.script(content("[]"), kind="questions")  # only for question requests
        fake_llm.requests         # [Request(method, path, query, headers, body)], in arrival order
        fake_llm.calls            # chat-completion requests received
        fake_llm.max_in_flight    # most requests handled at the same time
        fake_llm.expected_key = "k"  # from now on, any other key gets 401
        fake_llm.reset()          # clear script, log, counters, latency, expected key

Replies: every request takes the next scripted step for its kind (``kind="questions"`` or
``"answers"``), else the next step of the shared queue, else the default *smart* reply.
Steps (module functions): ``status(code, retry_after=None, message=None)`` an error with an
OpenAI-style error body; ``content(text)`` a 200 reply whose message content is ``text``
verbatim (fenced JSON, invalid JSON, ``[]``, wrong counts, ...); ``hang(seconds)`` sleep that
long before replying (longer than the client timeout: a timeout); ``smart()`` the default;
``drop()`` close the connection without a reply.

Smart replies recognise our prompts by their tags (``scorekit.judges._prompts``): a question
request (only ``<scorekit_text>``) gets one yes/no question per sentence of the text, as a
compact JSON array; an answer request (``<scorekit_questions>`` too) gets ``{"1": 1.0, ...}``:
1.0 when at least 75 % of the question's content words occur in the text, else 0.0. An
equivalence request (``<scorekit_items>``, kind ``"equivalence"``) gets
``{"1": {"equivalent": ..., "reason": ...}, ...}``: equivalent when the two values are equal
after case and punctuation, when one is the initials of the other (``NYC``), or when they share
at least 75 % of their content words.
Deterministic: same prompt, same reply. The reference implementation's prompts get the same
judgements in its reply shapes (for the latency comparison). Anything else gets a short
plain-text reply.

``refused_url()`` returns a URL on which nothing listens (a port bound, then closed).

Out of process (benchmarks, manual runs, the docs): ``python tests/fakes/openai_server.py
--latency 0.2`` prints the base URL (``--url-file PATH`` also writes it to a file) and serves
until killed; ``GET /_fake/stats`` returns ``{"calls": n, "max_in_flight": m}`` and
``POST /_fake/reset?latency=0.2`` resets it.
"""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from collections import deque
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from scorekit.judges._prompts import QUESTIONS_CLOSE, QUESTIONS_OPEN, TEXT_CLOSE, TEXT_OPEN

ITEMS_OPEN, ITEMS_CLOSE = "<scorekit_items>", "</scorekit_items>"

__all__ = [
    "FakeLLM",
    "Request",
    "Step",
    "content",
    "drop",
    "hang",
    "refused_url",
    "smart",
    "stall",
    "status",
]


@dataclass(frozen=True)
class Step:
    """One scripted reply. Build it with :func:`status`, :func:`content`, :func:`hang`,
    :func:`smart` or :func:`drop`."""

    code: int = 200
    content: str | None = None  # None: smart reply
    retry_after: str | None = None
    message: str | None = None
    delay: float = 0.0
    drop: bool = False
    finish_reason: str = "stop"
    #: Seconds between the headers and the body of the reply (a proxy that stalls mid-reply).
    stall: float = 0.0


def status(
    code: int, *, retry_after: str | float | None = None, message: str | None = None
) -> Step:
    """An HTTP error reply with an OpenAI-style body (and ``Retry-After`` if given)."""
    return Step(
        code=code,
        retry_after=None if retry_after is None else str(retry_after),
        message=message,
    )


def content(text: str, *, finish_reason: str = "stop") -> Step:
    """A 200 reply whose ``choices[0].message.content`` is ``text`` verbatim."""
    return Step(content=text, finish_reason=finish_reason)


def hang(seconds: float, then: Step | None = None) -> Step:
    """Wait ``seconds`` before replying (with ``then``, default smart): a client timeout."""
    base = then or Step()
    return Step(
        code=base.code,
        content=base.content,
        retry_after=base.retry_after,
        message=base.message,
        delay=seconds,
        drop=base.drop,
        finish_reason=base.finish_reason,
    )


def stall(seconds: float) -> Step:
    """Send the headers of the default reply, then wait ``seconds`` before its body."""
    return Step(stall=seconds)


def smart() -> Step:
    """The default reply, explicitly (useful between faults in a script)."""
    return Step()


def drop() -> Step:
    """Close the connection without sending a reply."""
    return Step(drop=True)


@dataclass
class Request:
    """One request the server received."""

    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: Any
    kind: str | None = None  # "questions", "answers" or None (not one of our prompts)

    @property
    def deployment(self) -> str | None:
        """The Azure deployment named in the path, if any."""
        m = re.match(r"^/openai/deployments/([^/]+)/", self.path)
        return m.group(1) if m else None


def refused_url() -> str:
    """A base URL on 127.0.0.1 where nothing listens (connections are refused)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


# -- smart replies ---------------------------------------------------------------------------

_STOP_WORDS = """a an the and or but of in on at to for from by with as is are was were be been
being do does did has have had it its this that these those there their they them he she his her
what which who whom whose when where how why not no yes than then so such into onto about
text state states stated say says said mention mentions mentioned"""
_STOP = frozenset(_STOP_WORDS.split())


def _between(s: str, open_tag: str, close_tag: str) -> str | None:
    start = s.find(open_tag)
    end = s.rfind(close_tag)
    if start < 0 or end < start:
        return None
    return s[start + len(open_tag) : end].strip()


def _sentences(text: str) -> list[str]:
    parts = re.split(r"(?<=[.!?])\s+|\n+", text.strip())
    return [p.strip().rstrip(".!?").strip() for p in parts if p.strip().rstrip(".!?").strip()]


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in _STOP and len(w) > 1}


def smart_questions(text: str) -> list[str]:
    """One yes/no question per sentence of ``text``."""
    return [f"Does the text state that {s}?" for s in _sentences(text)]


def smart_answers(text: str, questions: dict[str, str]) -> dict[str, float]:
    """1.0 for a question whose content words are mostly (>= 75 %) in ``text``, else 0.0."""
    have = _words(text)
    out: dict[str, float] = {}
    for key, question in questions.items():
        need = _words(question)
        share = len(need & have) / len(need) if need else 0.0
        out[key] = 1.0 if share >= 0.75 else 0.0
    return out


def _user_message(body: Any) -> str:
    try:
        messages = body["messages"]
        users = [m for m in messages if m.get("role") == "user"]
        msg = users[-1]["content"]
    except (TypeError, KeyError, IndexError, AttributeError):
        return ""
    if isinstance(msg, list):  # content parts
        return "".join(p.get("text", "") for p in msg if isinstance(p, dict))
    return str(msg)


# The reference implementation's user prompts (for the latency comparison in benchmarks/):
# questions: 'Text : "<text>"'; answers: 'Text:\n\n<text>\n\n\nQuestions to answer:\n\n\n<json>'.
_REF_ANSWERS = re.compile(r"^Text:\n\n(?P<text>.*)\n\n\nQuestions to answer:\n\n\n(?P<q>.*)$", re.S)
_REF_QUESTIONS = re.compile(r'^Text : "(?P<text>.*)"$', re.S)


def _reference_reply(user: str) -> str | None:
    m = _REF_ANSWERS.match(user)
    if m:
        try:
            parsed = json.loads(m.group("q"))
        except ValueError:
            parsed = {}
        questions = {str(k): str(v) for k, v in dict(parsed).items()}
        answers = smart_answers(m.group("text"), questions)
        items = [{"question": questions[k], "answer": answers[k]} for k in questions]
        return json.dumps({"list": items}, separators=(",", ":"))
    m = _REF_QUESTIONS.match(user)
    if m:
        numbered = {str(i): q for i, q in enumerate(smart_questions(m.group("text")), start=1)}
        return json.dumps(numbered, separators=(",", ":"))
    return None


def _flat(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True)
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def smart_verdict(expected: Any, actual: Any) -> dict[str, Any]:
    """The fake judge's verdict on one value pair (see the module docstring)."""
    left, right = _flat(expected), _flat(actual)
    if left == right:
        return {"equivalent": True, "reason": "The same value apart from case and punctuation."}
    for short, long_ in ((left, right), (right, left)):
        initials = "".join(w[0] for w in long_.split())
        if short.replace(" ", "") == initials and len(initials) > 1:
            return {"equivalent": True, "reason": f"{short.upper()} is the initials of {long_}."}
    need, have = _words(left), _words(right)
    share = len(need & have) / max(len(need | have), 1)
    if share >= 0.75:
        return {"equivalent": True, "reason": "The same content words, reworded."}
    return {"equivalent": False, "reason": f"{left!r} and {right!r} name different things."}


def smart_verdicts(user: str) -> str:
    body = _between(user, ITEMS_OPEN, ITEMS_CLOSE) or "{}"
    try:
        items = dict(json.loads(body))
    except (TypeError, ValueError):
        items = {}
    out = {k: smart_verdict(v.get("expected"), v.get("actual")) for k, v in items.items()}
    return json.dumps(out, separators=(",", ":"))


def classify(body: Any) -> str | None:
    """``"questions"``, ``"answers"``, ``"equivalence"`` or None, from the user message."""
    user = _user_message(body)
    if ITEMS_OPEN in user:
        return "equivalence"
    if QUESTIONS_OPEN in user or _REF_ANSWERS.match(user):
        return "answers"
    if TEXT_OPEN in user or _REF_QUESTIONS.match(user):
        return "questions"
    return None


def smart_reply(body: Any) -> str:
    """The deterministic reply to one of our prompts (see the module docstring)."""
    user = _user_message(body)
    kind = classify(body)
    if QUESTIONS_OPEN not in user and TEXT_OPEN not in user:
        ref = _reference_reply(user)
        if ref is not None:
            return ref
    if kind == "equivalence":
        return smart_verdicts(user)
    if kind == "questions":
        text = _between(user, TEXT_OPEN, TEXT_CLOSE) or ""
        return json.dumps(smart_questions(text), separators=(",", ":"))
    if kind == "answers":
        qtext = _between(user, QUESTIONS_OPEN, QUESTIONS_CLOSE) or "{}"
        after = user[user.find(QUESTIONS_CLOSE) :]
        text = _between(after, TEXT_OPEN, TEXT_CLOSE) or ""
        try:
            parsed = json.loads(qtext)
        except ValueError:
            parsed = {}
        if isinstance(parsed, list):
            parsed = {str(i): q for i, q in enumerate(parsed, start=1)}
        questions = {str(k): str(v) for k, v in dict(parsed).items()}
        return json.dumps(smart_answers(text, questions), separators=(",", ":"))
    return "I am a fake chat model."


# -- the server --------------------------------------------------------------------------------


class FakeLLM:
    """The fake server's state and controls (see the module docstring)."""

    def __init__(self) -> None:
        self.latency = 0.0
        self.expected_key: str | None = None
        self.requests: list[Request] = []
        self.calls = 0
        self.in_flight = 0
        self.max_in_flight = 0
        self._queue: deque[Step] = deque()
        self._kind_queues: dict[str, deque[Step]] = {
            "questions": deque(),
            "answers": deque(),
            "equivalence": deque(),
        }
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self.port = 0

    # -- addresses -------------------------------------------------------------------------
    @property
    def root(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def base_url(self) -> str:
        """An OpenAI-compatible base URL (``/v1``)."""
        return f"{self.root}/v1"

    @property
    def azure_endpoint(self) -> str:
        """An Azure OpenAI endpoint."""
        return self.root

    # -- controls --------------------------------------------------------------------------
    def script(self, *steps: Step, kind: str | None = None) -> None:
        """Queue replies, used in order; ``kind`` limits them to question or answer requests."""
        with self._lock:
            if kind is None:
                self._queue.extend(steps)
            else:
                self._kind_queues[kind].extend(steps)

    def reset(self) -> None:
        """Forget the script, the request log, the counters, the latency and the key."""
        with self._lock:
            self._queue.clear()
            for q in self._kind_queues.values():
                q.clear()
            self.requests.clear()
            self.calls = 0
            self.max_in_flight = 0
            self.latency = 0.0
            self.expected_key = None

    @property
    def pending(self) -> int:
        """Scripted steps not used yet."""
        with self._lock:
            return len(self._queue) + sum(len(q) for q in self._kind_queues.values())

    def requests_of(self, kind: str) -> list[Request]:
        """The logged requests of one kind (``"questions"`` or ``"answers"``)."""
        with self._lock:
            return [r for r in self.requests if r.kind == kind]

    # -- lifecycle -------------------------------------------------------------------------
    def start(self) -> FakeLLM:
        """Start serving on an ephemeral port of 127.0.0.1."""
        handler = type("Handler", (_Handler,), {"fake": self})
        server = _Server(("127.0.0.1", 0), handler)
        self._server = server
        self.port = server.server_address[1]
        self._stopping.clear()
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving; hanging replies end at once."""
        self._stopping.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> FakeLLM:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- request handling (server threads) ---------------------------------------------------
    def _next_step(self, kind: str | None) -> Step:
        with self._lock:
            if kind is not None and self._kind_queues[kind]:
                return self._kind_queues[kind].popleft()
            if self._queue:
                return self._queue.popleft()
            return Step()

    def _wait(self, seconds: float) -> None:
        if seconds > 0:
            self._stopping.wait(seconds)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    # The default backlog of 5 drops connections when 64 judge calls start together.
    request_queue_size = 256


class _Handler(BaseHTTPRequestHandler):
    fake: FakeLLM
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass  # keep test output clean

    def setup(self) -> None:
        super().setup()
        # Without this, Nagle + delayed ACK add ~40 ms to every small request/response pair.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def _send_json(self, code: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(payload).encode("utf-8")
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        # Headers and body in one write (end_headers would flush the headers on their own).
        self._headers_buffer.append(b"\r\n")
        stalled = getattr(self, "stall_body", 0.0)
        if stalled:
            self.wfile.write(b"".join(self._headers_buffer))
            self.wfile.flush()
            self.fake._wait(stalled)
            self._headers_buffer = [data]
        else:
            self._headers_buffer.append(data)
        self.wfile.write(b"".join(self._headers_buffer))
        self._headers_buffer = []

    def do_GET(self) -> None:
        fake = self.fake
        if self.path == "/_fake/stats":
            with fake._lock:
                stats = {"calls": fake.calls, "max_in_flight": fake.max_in_flight}
            self._send_json(200, stats)
            return
        self._send_json(404, {"error": {"message": "Not found", "type": "invalid_request_error"}})

    def do_POST(self) -> None:
        fake = self.fake
        split = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if split.path == "/_fake/reset":
            latency = fake.latency
            fake.reset()
            fake.latency = float(parse_qs(split.query).get("latency", [latency])[0])
            self._send_json(200, {"latency": fake.latency})
            return
        try:
            body: Any = json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode("utf-8", "replace")
        kind = classify(body)
        req = Request(
            method="POST",
            path=split.path,
            query=parse_qs(split.query),
            headers={k.lower(): v for k, v in self.headers.items()},
            body=body,
            kind=kind,
        )
        with fake._lock:
            fake.requests.append(req)
            fake.calls += 1
            fake.in_flight += 1
            fake.max_in_flight = max(fake.max_in_flight, fake.in_flight)
        try:
            self._answer(req, split.path)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timeout); nothing to send
        finally:
            with fake._lock:
                fake.in_flight -= 1

    def _answer(self, req: Request, path: str) -> None:
        fake = self.fake
        step = fake._next_step(req.kind)
        self.stall_body = step.stall
        fake._wait(fake.latency + step.delay)
        if step.drop:
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        if not path.rstrip("/").endswith("/chat/completions"):
            self._send_json(
                404, {"error": {"message": f"Unknown path {path}", "type": "invalid_request_error"}}
            )
            return
        if fake.expected_key is not None:
            given = req.headers.get("api-key") or req.headers.get("authorization", "")
            given = given.removeprefix("Bearer ").strip()
            if given != fake.expected_key:
                self._send_json(
                    401,
                    {
                        "error": {
                            "message": "Incorrect API key provided.",
                            "type": "invalid_request_error",
                            "code": "invalid_api_key",
                        }
                    },
                )
                return
        if step.code != 200:
            headers = {"Retry-After": step.retry_after} if step.retry_after is not None else {}
            message = step.message or _DEFAULT_MESSAGES.get(step.code, f"HTTP {step.code}")
            self._send_json(
                step.code,
                {"error": {"message": message, "type": "fake_error", "code": str(step.code)}},
                headers,
            )
            return
        body = req.body if isinstance(req.body, dict) else {}
        text = step.content if step.content is not None else smart_reply(body)
        model = body.get("model") or req.deployment or "fake-model"
        prompt_words = sum(
            len(str(m.get("content", "")).split())
            for m in body.get("messages", [])
            if isinstance(m, dict)
        )
        with fake._lock:
            n = fake.calls
        self._send_json(
            200,
            {
                "id": f"chatcmpl-fake{n:06d}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": model,
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": text},
                        "finish_reason": step.finish_reason,
                        "logprobs": None,
                    }
                ],
                "usage": {
                    "prompt_tokens": prompt_words,
                    "completion_tokens": len(text.split()),
                    "total_tokens": prompt_words + len(text.split()),
                },
            },
        )


_DEFAULT_MESSAGES = {
    400: "Invalid value for 'temperature': must be between 0 and 2.",
    401: "Incorrect API key provided.",
    403: "Access denied.",
    404: "The API deployment for this resource does not exist.",
    429: "Rate limit reached. Please retry later.",
    500: "The server had an error while processing your request.",
    503: "The engine is currently overloaded, please try again later.",
}


def main(argv: list[str] | None = None) -> None:
    """Serve in the foreground (for benchmarks and manual runs); prints the base URL."""
    import argparse

    parser = argparse.ArgumentParser(description="Fake OpenAI/Azure chat-completions server.")
    parser.add_argument("--latency", type=float, default=0.0, help="seconds before each reply")
    parser.add_argument("--url-file", help="also write the base URL to this file (before printing)")
    args = parser.parse_args(argv)
    fake = FakeLLM().start()
    fake.latency = args.latency
    if args.url_file:
        # Written whole before the URL is printed: whoever saw the URL can read the file.
        partial = Path(f"{args.url_file}.partial")
        partial.write_text(fake.base_url + "\n", encoding="utf-8")
        partial.replace(args.url_file)
    print(fake.base_url, flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        fake.stop()


if __name__ == "__main__":
    main()
