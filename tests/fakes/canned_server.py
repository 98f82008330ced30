"""A real HTTP server on 127.0.0.1 that answers every POST with one canned JSON body.

For driving a provider SDK's real client (``anthropic``, ``google-genai``) offline: the SDK
sends its real request and parses the reply into its own response objects, exactly as it
would with the provider's API. Nothing is mocked.

    with CannedJSONServer({"id": "msg_1", ...}) as server:
        client = anthropic.Anthropic(api_key="test", base_url=server.url, max_retries=0)
        message = client.messages.create(...)
        server.paths  # ["/v1/messages"]
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["CannedJSONServer"]


class CannedJSONServer:
    """Serves ``body`` as JSON to every POST; records the request paths and bodies."""

    def __init__(self, body: Any) -> None:
        self.body = body
        self.paths: list[str] = []
        self.requests: list[Any] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                outer.paths.append(self.path)
                outer.requests.append(json.loads(raw) if raw else None)
                payload = json.dumps(outer.body).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> CannedJSONServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
