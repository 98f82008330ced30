"""A Streamable HTTP endpoint that stalls: it accepts every connection and reads the request,
then never answers (``headers`` mode: sends the response headers of an event stream, then
nothing). ``python stalling_http.py MODE PORTFILE`` listens on a free 127.0.0.1 port, writes
the port to PORTFILE, and writes a line to stdout for every connection it accepts and every
connection the client closes."""

from __future__ import annotations

import socket
import sys
import threading

mode, portfile = sys.argv[1], sys.argv[2]


def serve(conn: socket.socket) -> None:
    with conn:
        conn.recv(65536)
        if mode == "headers":
            conn.sendall(
                b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                b"Cache-Control: no-cache\r\nTransfer-Encoding: chunked\r\n\r\n"
            )
        while conn.recv(65536):  # wait (discarding anything else) until the client leaves
            pass
    print("closed", flush=True)


with socket.socket() as listener:
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    with open(portfile, "w") as f:
        f.write(str(listener.getsockname()[1]))
    while True:
        conn, _ = listener.accept()
        print("accepted", flush=True)
        threading.Thread(target=serve, args=(conn,), daemon=True).start()
