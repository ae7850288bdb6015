"""A real HTTP server on 127.0.0.1 that speaks enough of the chat completions API for tests.

Use in-process (`with FakeLLM(...) as server:`) or as a process for the benchmark:
    python tests/python/fake_llm_server.py --delay 1.0      # prints the base URL, then serves

Papers are recognised by the <title> of the user message.  A script maps a title to a list
of actions consumed one per request (then the default answer):
    {"status": 429, "headers": {"Retry-After": "0"}}       an error status
    {"content": "{not json"}                               a 200 answer with this message text
    {"delay": 2.0}                                         wait before answering (combinable)
    {"echo_auth": True, "status": 500}                     echo the Authorization header back
    {"raw_body": "<html>"}                                 a 200 whose body is not JSON
    {"echo_key": "category"}       a 200 whose category is a long text ending in the API key
    {"echo_key": "fields"}         a valid 200 with the API key in every other field it has
                                   (id, model, finish_reason, rationale), some \\u-escaped
    {"echo_key": "message"}        a valid 200 with the API key only in the model's rationale
    {"echo_key": "fields", "spelling": "upper"}   the same, the key spelled another way
                                   (`SPELLINGS`: upper-cased, %2D for "-", split by invisible
                                   characters, full-width letters)
    {"status": 307, "headers": {"Location": url}} a redirect (to another server, or this one)
    {"gzip_bomb": n}               a 200 whose gzip body inflates to n zero bytes
    {"unsized_body": text}         a 200 with no Content-Length: the body runs until the close
    {"declared_length": n}         a 200 that declares n bytes and sends 2
GET /v1/models lists the models (as `paperrank classify check` asks for them); the actions in
`models_script` (status, headers, raw_body) are consumed one per GET first.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import re
import sys
import threading
import time
import zlib
from collections import Counter
from collections.abc import Callable
from typing import Any

from json_http import JsonHandler, QuietServer, serve_in_background

TITLE = re.compile(r"<title>(.*?)</title>", re.S)


def paper_title(body: dict[str, Any]) -> str | None:
    for message in body.get("messages", []):
        if message.get("role") == "user":
            found = TITLE.search(message.get("content") or "")
            if found:
                return found.group(1)
    return None


def enum_of(body: dict[str, Any]) -> list[str]:
    try:
        schema = body["response_format"]["json_schema"]["schema"]
        return list(schema["properties"]["category"]["enum"])
    except (KeyError, TypeError):
        return ["Other"]


def default_category(title: str | None, choices: list[str]) -> str:
    digest = hashlib.sha1((title or "").encode("utf-8")).digest()
    return choices[digest[0] % len(choices)]


def _fullwidth(text: str) -> str:
    """ASCII letters and digits as their full-width forms (NFKC folds them back)."""
    return "".join(chr(ord(c) + 0xFEE0) if c.isascii() and c.isalnum() else c for c in text)


# How an endpoint may spell the key it echoes; each defeats an exact-match redaction.
SPELLINGS: dict[str, Callable[[str], str]] = {
    "exact": lambda key: key,
    "upper": str.upper,
    "percent": lambda key: key.replace("-", "%2D"),
    "zero-width": lambda key: "\u200b".join(key[i:i + 5] for i in range(0, len(key), 5)),
    "invisible": lambda key: key[:6] + "\u2060" + key[6:12] + "\u00ad" + key[12:18] + "\ufeff"
    + key[18:24] + "\u200d" + key[24:],
    "fullwidth": _fullwidth,
    "mixed": lambda key: "\u200c".join(key.upper().replace("-", "%2d")),
}


class FakeLLM:
    def __init__(self, *, delay: float = 0.0, script: dict[str, list[dict[str, Any]]] | None = None,
                 categories: dict[str, str] | None = None,
                 chooser: Callable[[str | None, list[str]], str] | None = None,
                 models_script: list[dict[str, Any]] | None = None) -> None:
        self.delay = delay
        self.script = {k: list(v) for k, v in (script or {}).items()}
        self.models_script = list(models_script or [])
        self.categories = categories or {}
        self.chooser = chooser or default_category
        self.models = ["Qwen/Qwen3.5-397B-A17B", "fake"]
        self.lock = threading.Lock()
        self.requests: list[dict[str, Any]] = []   # every request received, in order
        self.gets: list[str] = []                   # the paths of every GET, in order
        self.answered: Counter[str] = Counter()     # 200 answers fully sent, per title
        self.server: QuietServer | None = None
        self.thread: threading.Thread | None = None

    # -- lifecycle -----------------------------------------------------------------------
    def start(self, port: int = 0) -> FakeLLM:
        fake = self

        class Handler(JsonHandler):
            disable_nagle_algorithm = True  # no 40 ms Nagle/delayed-ACK stall per answer

            def do_GET(self) -> None:  # noqa: N802 - http.server's naming
                with fake.lock:
                    fake.gets.append(self.path)
                    action = fake.models_script.pop(0) if fake.models_script else {}
                if "status" in action:
                    self._send(action["status"], {"error": {"message": "scripted"}},
                               action.get("headers"))
                elif "raw_body" in action:
                    self._send(200, None, text=action["raw_body"])
                elif self.path.rstrip("/").endswith("/models"):
                    self._send(200, {"object": "list", "data": [
                        {"id": m, "object": "model"} for m in fake.models]})
                else:
                    self._send(404, {"error": {"message": "not found"}})

            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw)
                except json.JSONDecodeError:
                    self._send(400, {"error": {"message": "bad json"}})
                    return
                fake._handle(self, body)

        class Server(QuietServer):
            request_queue_size = 512

        self.server = Server(("127.0.0.1", port), Handler)
        self.thread = serve_in_background(self.server)
        return self

    def stop(self) -> None:
        if self.server:
            self.server.shutdown()
            self.server.server_close()

    def __enter__(self) -> FakeLLM:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    # -- behaviour -----------------------------------------------------------------------
    def requests_per_title(self) -> Counter[str]:
        with self.lock:
            return Counter(r["title"] for r in self.requests)

    def _handle(self, handler: Any, body: dict[str, Any]) -> None:
        title = paper_title(body)
        with self.lock:
            self.requests.append({
                "title": title, "body": body, "headers": dict(handler.headers.items()),
                "path": handler.path, "at": time.time(),
            })
            queue = self.script.get(title or "")
            action = queue.pop(0) if queue else {}
        delay = action.get("delay", self.delay)
        if delay:
            time.sleep(delay)
        if "status" in action:
            payload: dict[str, Any] = {"error": {"message": action.get("message", "scripted"),
                                                 "type": "scripted", "code": action["status"]}}
            if action.get("echo_auth"):
                payload["error"]["message"] = (
                    "echo: Authorization=" + str(handler.headers.get("Authorization"))
                )
            handler._send(action["status"], payload, action.get("headers"))
            return
        if "raw_body" in action:  # a 200 whose body is not a chat completion
            handler._send(200, None, text=action["raw_body"])
            return
        if "unsized_body" in action or "declared_length" in action:
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                handler.send_response(200)
                handler.send_header("Content-Type", "application/json")
                if "declared_length" in action:
                    handler.send_header("Content-Length", str(action["declared_length"]))
                handler.send_header("Connection", "close")
                handler.end_headers()
                handler.wfile.write(action.get("unsized_body", "{}").encode())
                handler.wfile.flush()
            handler.close_connection = True
            return
        if "gzip_bomb" in action:
            squeeze = zlib.compressobj(1, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
            zeros = b"\0" * (1 << 20)
            data = b"".join(squeeze.compress(zeros) for _ in range(action["gzip_bomb"] >> 20))
            data += squeeze.flush()
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                handler.send_response(200)
                handler.send_header("Content-Type", "application/json")
                handler.send_header("Content-Encoding", "gzip")
                handler.send_header("Content-Length", str(len(data)))
                handler.end_headers()
                handler.wfile.write(data)
            return
        choices = enum_of(body)
        key = str(handler.headers.get("Authorization") or "").removeprefix("Bearer ")
        if action.get("echo_key"):
            key = SPELLINGS[action.get("spelling", "exact")](key)
            self._echo_key(handler, action["echo_key"], key, choices)
            return
        if "content" in action:
            content = action["content"]
        else:
            category = self.categories.get(title or "") or self.chooser(title, choices)
            content = json.dumps({"category": category, "confidence": "high",
                                  "rationale": f"The main contribution fits {category}."})
        response = {
            "id": f"chatcmpl-{len(self.requests)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", "fake"),
            "choices": [{
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": action.get("finish_reason", "stop"),
            }],
            "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
        }
        if handler._send(200, response):
            with self.lock:
                self.answered[title or ""] += 1


    def _echo_key(self, handler: Any, where: str, key: str, choices: list[str]) -> None:
        """Answer with the caller's key wherever an answer can carry text (`message`: only in
        the model's rationale, so only JSON read inside JSON finds it)."""
        if where == "message":
            content = json.dumps({"category": choices[0], "confidence": "high",
                                  "rationale": f"Because {key} says so."})
            handler._send(200, {
                "id": "chatcmpl-echo", "object": "chat.completion", "created": int(time.time()),
                "model": "fake", "choices": [{"index": 0, "finish_reason": "stop", "message": {
                    "role": "assistant", "content": content}}],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})
            return
        if where == "category":
            content = json.dumps({"category": "x" * 60 + key, "confidence": "high",
                                  "rationale": "r"})
            fields = {"model": "fake", "finish_reason": "stop", "id": "chatcmpl-echo"}
        else:
            content = json.dumps({"category": choices[0], "confidence": "high",
                                  "rationale": f"Because {key} says so."})
            fields = {"model": key, "finish_reason": key, "id": key}
        response = {
            "id": fields["id"], "object": "chat.completion", "created": int(time.time()),
            "model": fields["model"], "system_fingerprint": key,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                         "finish_reason": fields["finish_reason"]}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }
        text = json.dumps(response)
        if key:  # spell the key's first half in \\u escapes the second time it appears
            half = len(key) // 2
            escaped = "".join(f"\\u{ord(c):04x}" for c in key[:half]) + key[half:]
            first = text.find(key)
            text = text[:first + len(key)] + text[first + len(key):].replace(key, escaped, 1)
        handler._send(200, None, text=text)


def seed_papers(papers: list[dict[str, Any]], venue: str = "Test 2026") -> None:
    """Write accepted papers into the warehouse named by PAPERRANK_DB (tests only)."""
    import os
    from datetime import UTC, datetime

    from paperrank.core.loads import Batch, write_batch
    from paperrank.core.warehouse import connect

    if not os.environ.get("PAPERRANK_DB"):
        raise RuntimeError("set PAPERRANK_DB: tests never write the default warehouse")
    rows = []
    for paper in papers:
        row = {"venue": venue, "primary_area": "other", "keywords": [], "status": "Poster",
               "is_accepted": True, "forum_url": None, "pdf_url": None}
        row.update(paper)
        rows.append(row)
    con = connect()
    try:
        write_batch(con, Batch(kind="test", source="tests", snapshot_at=datetime.now(UTC),
                               records_read=len(rows), papers=rows))
    finally:
        con.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--delay", type=float, default=0.0, help="seconds before each answer")
    args = parser.parse_args()
    server = FakeLLM(delay=args.delay).start(args.port)
    print(server.base_url, flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
