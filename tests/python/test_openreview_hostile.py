"""A hostile or broken OpenReview server is bounded.

Each case runs against a real HTTP server on 127.0.0.1: a login redirected to another host
(the password used to follow it), endless pages, a page served again and again, a server
sending one byte a second (the 120 s timeout was per read), a gzip bomb (1 MB took 3.28 GB of
memory) and a crawl that gets fewer notes than the server announced (it said nothing).
"""

from __future__ import annotations

import contextlib
import gzip
import json
import resource
import subprocess
import time
import urllib.parse
import zlib
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from json_http import serve_in_background
from project import BIN, REPO

from paperrank.ingest.openreview_client import OpenReviewClient, RefusedError, RetryPolicy, Unreachable

PASSWORD = "s3cret-pa55word-9d1"
FAST = RetryPolicy(attempts=2, backoff_initial=0.001, backoff_max=0.002, timeout=1.5)
# a deadline shorter than the drip's whole answer, longer than the gap between its bytes (so a
# per-read timeout of the same length would never fire)
DRIP = RetryPolicy(attempts=2, backoff_initial=0.001, backoff_max=0.002, timeout=0.6)
GAP = 0.2


class Server:
    """A local server whose GET and POST answers come from `answer(handler, path, query)`."""

    def __init__(self, answer: Callable[[BaseHTTPRequestHandler, str, dict], None]) -> None:
        self.seen: list[tuple[str, str, bytes]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                return

            def _any(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                server.seen.append((self.command, self.path, body))
                url = urllib.parse.urlsplit(self.path)
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    answer(self, url.path, dict(urllib.parse.parse_qsl(url.query)))

            do_GET = do_POST = _any  # noqa: N815

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.http.daemon_threads = True
        serve_in_background(self.http)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.http.server_address[1]}"

    def close(self) -> None:
        self.http.shutdown()
        self.http.server_close()


def send(handler: BaseHTTPRequestHandler, status: int, data: bytes,
         headers: dict[str, str] | None = None) -> None:
    handler.send_response(status)
    handler.send_header("Content-Length", str(len(data)))
    for key, value in (headers or {}).items():
        handler.send_header(key, value)
    handler.end_headers()
    handler.wfile.write(data)


def notes_page(ids: list[str], count: int | None) -> bytes:
    page: dict = {"notes": [{"id": i, "content": {}} for i in ids]}
    if count is not None:
        page["count"] = count
    return json.dumps(page).encode()


@pytest.fixture
def servers():
    made: list[Server] = []
    yield lambda answer: made.append(Server(answer)) or made[-1]
    for server in made:
        server.close()


def test_a_redirected_login_never_takes_the_password_elsewhere(servers, tmp_path) -> None:
    other = servers(lambda h, path, q: send(h, 200, b'{"token": "stolen"}'))
    origin = servers(lambda h, path, q: send(h, 307, b"", {"Location": f"{other.url}/login"}))
    env = {"OPENREVIEW_USERNAME": "me@example.org", "OPENREVIEW_PASSWORD": PASSWORD,
           "PAPERRANK_DB": str(tmp_path / "w.duckdb"), "PATH": "/usr/bin:/bin"}
    result = subprocess.run([str(BIN / "paperrank"), "ingest", "openreview", "--venue-id",
                             "ICLR.cc/2026/Conference", "--base-url", origin.url,
                             "--snapshot-dir", str(tmp_path / "snaps")], cwd=REPO, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2, result.stderr
    assert other.seen == []  # the other host got nothing, the password least of all
    assert [s[1] for s in origin.seen] == ["/login"]
    assert PASSWORD not in result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "OpenReview login failed" in lines[0], result.stderr
    assert "redirected (HTTP 307) to another host" in lines[0] and "never sent there" in lines[0]


def test_a_redirect_to_another_host_is_refused_and_one_to_the_same_host_is_followed(servers) -> None:
    other = servers(lambda h, path, q: send(h, 200, notes_page(["x"], 1)))

    def same(h, path, q):
        if path == "/moved":
            send(h, 200, notes_page(["a"], 1))
        elif path == "/notes" and q.get("offset") == "0":
            send(h, 307, b"", {"Location": "/moved"})
        else:
            send(h, 200, notes_page([], 1))
    origin = servers(same)
    client = OpenReviewClient(origin.url, policy=FAST, log=lambda m: None)
    assert [n["id"] for n in client.iter_submissions("V", page_size=5)] == ["a"]
    elsewhere = servers(lambda h, path, q: send(h, 302, b"", {"Location": f"{other.url}/notes"}))
    client = OpenReviewClient(elsewhere.url, policy=FAST, log=lambda m: None)
    client._token = "tok-secret"
    with pytest.raises(RefusedError, match="redirected .* to another host"):
        list(client.iter_submissions("V"))
    assert other.seen == []


def test_endless_pages_stop(servers) -> None:
    def endless(h, path, q):  # always a full page of new notes; the count says 12
        offset, limit = int(q["offset"]), int(q["limit"])
        send(h, 200, notes_page([f"n{offset + i}" for i in range(limit)], 12))
    client = OpenReviewClient(servers(endless).url, policy=FAST, log=lambda m: None)
    assert len(list(client.iter_submissions("V", page_size=5))) == 15  # three pages: past 12

    def no_count(h, path, q):
        offset, limit = int(q["offset"]), int(q["limit"])
        send(h, 200, notes_page([f"n{offset + i}" for i in range(limit)], None))
    logged: list[str] = []
    client = OpenReviewClient(servers(no_count).url, policy=FAST, log=logged.append, max_notes=40)
    assert len(list(client.iter_submissions("V", page_size=10))) == 40
    assert any("40 notes received with no end announced; stopping" in m for m in logged)


def test_a_repeated_page_stops_the_crawl_and_says_so(servers) -> None:
    server = servers(lambda h, path, q: send(h, 200, notes_page(["a", "b", "c"], None)))
    logged: list[str] = []
    client = OpenReviewClient(server.url, policy=FAST, log=logged.append)
    assert [n["id"] for n in client.iter_submissions("V", page_size=3)] == ["a", "b", "c"]
    assert len(server.seen) == 2
    assert any("repeated notes already received; stopping" in m for m in logged)


@pytest.mark.parametrize("where", ["body", "headers"])
def test_one_byte_a_second_meets_the_deadline(servers, where: str) -> None:
    def drip(h, path, q):
        data = notes_page(["a"], 1)
        if where == "headers":
            for byte in b"HTTP/1.1 200 OK\r\nContent-Length: 20\r\nX-Slow: " + b"x" * 100:
                h.wfile.write(bytes([byte]))
                h.wfile.flush()
                time.sleep(GAP)
            return
        h.send_response(200)
        h.send_header("Content-Length", str(len(data)))
        h.end_headers()
        for byte in data:
            h.wfile.write(bytes([byte]))
            h.wfile.flush()
            time.sleep(GAP)
    client = OpenReviewClient(servers(drip).url, policy=DRIP, log=lambda m: None)
    started = time.monotonic()
    with pytest.raises(Unreachable, match="no complete answer within 0.6s"):
        list(client.iter_submissions("V"))
    assert time.monotonic() - started < 3 * (DRIP.timeout + 1.5)  # 2 attempts, a bound


def test_a_gzip_bomb_stops_at_the_cap(servers) -> None:
    squeeze = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    zeros = b"\0" * (1 << 20)
    bomb = b"".join(squeeze.compress(zeros) for _ in range(1024)) + squeeze.flush()  # 1 GiB
    assert len(bomb) < 1_200_000
    server = servers(lambda h, path, q: send(h, 200, bomb, {"Content-Encoding": "gzip"}))
    client = OpenReviewClient(server.url, policy=FAST, log=lambda m: None, max_bytes=32 << 20)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with pytest.raises(RefusedError, match="larger than 33554432 bytes once decompressed"):
        list(client.iter_submissions("V"))
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert grown_mb < 200, grown_mb  # the old client took 3.28 GB


def test_a_gzip_answer_within_the_cap_is_read(servers) -> None:
    data = gzip.compress(notes_page(["a", "b"], 2))
    server = servers(lambda h, path, q: send(h, 200, data, {"Content-Encoding": "gzip"}))
    client = OpenReviewClient(server.url, policy=FAST, log=lambda m: None)
    assert [n["id"] for n in client.iter_submissions("V")] == ["a", "b"]


def test_fewer_notes_than_announced_warn_and_the_summary_says_so(servers, tmp_path) -> None:
    def short(h, path, q):
        ids = ["n1", "n2", "n3", "n4"] if q.get("offset") == "0" else []
        send(h, 200, notes_page(ids, 6))
    server = servers(short)
    logged: list[str] = []
    client = OpenReviewClient(server.url, policy=FAST, log=logged.append)
    assert len(list(client.iter_submissions("ICLR.cc/2026/Conference", page_size=10))) == 4
    assert client.last_crawl.summary() == "4 of the 6 notes announced"
    assert any("announced 6 notes for ICLR.cc/2026/Conference, 4 arrived" in m for m in logged)
