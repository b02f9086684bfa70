"""A small JSON-over-HTTP server for the stand-ins of outside services (an embeddings server,
a chat-completions server): a threaded server on 127.0.0.1 whose POSTs one function answers."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

#: (path, body, headers) → (status, JSON body), or None to close the connection unanswered.
Answer = Callable[[str, bytes, dict[str, str]], "tuple[int, bytes] | None"]


@contextmanager
def json_server(answer: Answer, port: int = 0) -> Iterator[str]:
    """Serve every POST with `answer` on 127.0.0.1 (a free port unless `port`); yields the
    base URL (``http://127.0.0.1:PORT/v1``) and shuts the server down on exit."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            reply = answer(self.path, self.rfile.read(length), dict(self.headers))
            if reply is None:
                self.close_connection = True
                return
            status, body = reply
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout test)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
