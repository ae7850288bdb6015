"""A real HTTP server on 127.0.0.1 that speaks the parts of the OpenReview API v2 the client uses.

    POST /login  {"id", "password"} -> {"token"}        (only when credentials are set)
    GET  /notes?invitation=<venue>/-/Submission&details=replies&offset=&limit=
         -> {"notes": [...], "count": N}

Faults are scripted by request number (1-based, counting every request to /notes):
    {3: ("status", 429, {"Retry-After": "2"}), 5: ("status", 500, {}), 7: ("drop",)}
"drop" closes the connection without answering, as a crashed proxy would;
("raw", 200, text) answers with that body as it is (a hostile page: deep nesting, not JSON).
"""

from __future__ import annotations

import json
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler
from typing import Any

from json_http import JsonHandler, QuietServer, serve_in_background

Fault = tuple[Any, ...]


class FakeOpenReview:
    """Serve `notes` for `venue_id`; use as a context manager, read `base_url`."""

    def __init__(self, venue_id: str, notes: list[dict[str, Any]],
                 faults: dict[int, Fault] | None = None,
                 credentials: tuple[str, str] | None = None, token: str = "tok-123") -> None:
        self.venue_id = venue_id
        self.notes = notes
        self.faults = dict(faults or {})
        self.credentials = credentials
        self.token = token
        self.requests: list[str] = []
        self.bodies: list[bytes] = []
        self.auth_headers: list[str | None] = []
        self._lock = threading.Lock()
        self._server = QuietServer(("127.0.0.1", 0), self._handler())

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> FakeOpenReview:
        serve_in_background(self._server)
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(JsonHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                with fake._lock:
                    fake.bodies.append(body)
                if self.path != "/login" or fake.credentials is None:
                    self._send(404, {"message": "not found"})
                    return
                sent = json.loads(body or b"{}")
                if (sent.get("id"), sent.get("password")) != fake.credentials:
                    self._send(403, {"message": f"wrong password for {sent.get('id')}"})
                    return
                self._send(200, {"token": fake.token})

            def do_GET(self) -> None:
                url = urllib.parse.urlsplit(self.path)
                query = dict(urllib.parse.parse_qsl(url.query))
                with fake._lock:
                    fake.requests.append(self.path)
                    fake.auth_headers.append(self.headers.get("Authorization"))
                    fault = fake.faults.pop(len(fake.requests), None)
                if fault and fault[0] == "drop":
                    self.close_connection = True
                    return
                if fault and fault[0] == "raw":
                    self._send(fault[1], None, text=fault[2])
                    return
                if fault and fault[0] == "status":
                    self._send(fault[1], {"message": "injected"}, fault[2])
                    return
                if url.path != "/notes":
                    self._send(404, {"message": "not found"})
                    return
                if query.get("invitation") != f"{fake.venue_id}/-/Submission":
                    self._send(200, {"notes": [], "count": 0})
                    return
                offset, limit = int(query.get("offset", 0)), int(query.get("limit", 1000))
                page = fake.notes[offset:offset + limit]
                self._send(200, {"notes": page, "count": len(fake.notes)})

        return Handler


def as_api_note(note: dict[str, Any]) -> dict[str, Any]:
    """Turn a crawled sample line into what API v2 returns: wrapped values, details.replies."""
    api = {k: v for k, v in note.items() if k not in ("replies", "withdrawn")}
    api["content"] = {k: {"value": v} for k, v in note["content"].items()}
    api["forum"] = note["id"]
    api["details"] = {"replies": note.get("replies", [])}
    return api
