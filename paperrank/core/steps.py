"""Numbered progress lines, one per step of a command: `[2/6] dbt build ... ok (5.1 s)`.

The pipeline and the publish door both report through one `Steps`, so `make rank` numbers its
steps in one sequence whichever package runs them; `say` prints a line between steps.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class Steps:
    """`total` numbered steps; each `run` prints its name, then ok with its seconds or FAILED."""

    def __init__(self, total: int) -> None:
        self.total, self.done = total, 0

    def run(self, name: str, action: Callable[[], T]) -> T:
        self.done += 1
        print(f"[{self.done}/{self.total}] {name} ...", end="", flush=True)
        started = time.monotonic()
        try:
            result = action()
        except BaseException:
            print(" FAILED", flush=True)
            raise
        print(f" ok ({time.monotonic() - started:.1f} s)", flush=True)
        return result

    @staticmethod
    def say(line: str) -> None:
        print(line, flush=True)
