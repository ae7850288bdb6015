"""The part of every local test server that is the same: quiet logs and JSON replies.

The fake OpenReview and chat-completions servers differ in what they answer, not in how
they write an answer, so both handlers subclass this one.
"""

from __future__ import annotations

import json
import socketserver
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

# How often a server's loop looks for shutdown(). The standard 0.5 s made every stop of a test's
# server wait up to half a second, about 25 s of sleep in a `make test-fast` (cProfile of
# test_hostile_endpoints: socketserver's shutdown 0.475 s a server).
POLL_INTERVAL = 0.01


def serve_in_background(server: socketserver.BaseServer) -> threading.Thread:
    """Serve `server` on a daemon thread that its shutdown() stops within POLL_INTERVAL."""
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": POLL_INTERVAL},
                              daemon=True)
    thread.start()
    return thread


class QuietServer(ThreadingHTTPServer):
    """A threading server that says nothing when a client hangs up mid-answer (a client that
    refuses an answer past its bound does), instead of printing a traceback into the test's
    captured stderr."""

    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class JsonHandler(BaseHTTPRequestHandler):
    """HTTP/1.1 handler that writes JSON (or a raw text body) and keeps test output clean."""

    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        return

    def _send(self, status: int, payload: Any, headers: dict[str, str] | None = None,
              text: str | None = None) -> bool:
        """Write one reply; False when the client has already gone (a timed-out request)."""
        data = (text if text is not None else json.dumps(payload)).encode("utf-8")
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)
            self.wfile.flush()
            return True
        except (BrokenPipeError, ConnectionResetError):
            return False
