"""`python -m bench.suite_times REPORT [--update docs/tests.md]`: each test module's time, as a table.

The suite's cost shows up in no single test: a module that builds a venue three times, or starts
dbt in a subprocess per test, is slow as a whole. So this turns the suite's own record of a run
into one row per module (its tests, their seconds, its share, its slowest test), slowest first,
so that the next slow module is seen the day it lands. `make test-times` runs the suite as
`make test` does and rewrites docs/tests.md's table.

REPORT is either pytest's JUnit XML (`pytest --junitxml=FILE`: each test's setup, call and
teardown) or the text of `pytest --durations=0` (its lines `1.23s call tests/...::test`).
A module's seconds are the sum of its tests' setup, call and teardown: its module fixtures fall
on its first test; a session fixture (the warehouse library, tests/python/conftest.py) falls on
the first test that asks for it, in whichever module that is. Under pytest-xdist the modules run
side by side, so their sum is CPU-bound work, not the wall time of the run.
"""

from __future__ import annotations

import argparse
import re
import xml.etree.ElementTree as ET
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

# `--durations=0` lines: "12.34s call     tests/python/test_x.py::test_y[id]"
DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)s\s+(setup|call|teardown)\s+(\S.*?)\s*$")
# docs/tests.md keeps the table between these two lines
BEGIN, END = "<!-- module times: begin -->", "<!-- module times: end -->"


@dataclass
class Module:
    """One test module's tests and their seconds (setup + call + teardown of each)."""

    name: str
    seconds: dict[str, float] = field(default_factory=lambda: defaultdict(float))

    @property
    def total(self) -> float:
        return sum(self.seconds.values())

    def slowest(self) -> tuple[str, float]:
        test = max(self.seconds, key=lambda name: self.seconds[name])
        return test, self.seconds[test]


def split_node(nodeid: str) -> tuple[str, str]:
    """(module file, test) of a pytest node id, less pytest-xdist's `@group` suffix."""
    path, _, test = nodeid.partition("::")
    test = re.sub(r"@[^\]@]*$", "", test)  # loadgroup appends "@<group>" after any [params]
    return Path(path).name, test


def from_durations(text: str) -> dict[str, Module]:
    modules: dict[str, Module] = {}
    for line in text.splitlines():
        found = DURATION.match(line)
        if found:
            module, test = split_node(found.group(3))
            modules.setdefault(module, Module(module)).seconds[test] += float(found.group(1))
    return modules


def from_junit(path: Path) -> dict[str, Module]:
    modules: dict[str, Module] = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        # classname "tests.python.test_x" (or "...test_x.TestClass"), name "test_y[id]@group"
        parts = case.get("classname", "").split(".")
        index = next((i for i, part in enumerate(parts) if part.startswith("test_")), len(parts) - 1)
        module = parts[index] + ".py"
        test = "::".join([*parts[index + 1:], split_node("::" + case.get("name", ""))[1]])
        modules.setdefault(module, Module(module)).seconds[test] += float(case.get("time", 0) or 0)
    return modules


def read(path: Path) -> dict[str, Module]:
    """The modules of a JUnit XML report or of `--durations=0` text."""
    text = path.read_text(encoding="utf-8")
    modules = from_junit(path) if text.lstrip().startswith("<") else from_durations(text)
    if not modules:
        raise SystemExit(f"no test durations in {path}: give pytest's --junitxml file or the "
                         "output of pytest --durations=0")
    return modules


def table(modules: dict[str, Module]) -> str:
    """The markdown table, slowest module first, with the sum on its last line."""
    total = sum(module.total for module in modules.values())
    lines = ["| module | tests | seconds | share | slowest test (seconds) |",
             "|---|---:|---:|---:|---|"]
    for module in sorted(modules.values(), key=lambda m: (-m.total, m.name)):
        test, seconds = module.slowest()
        share = module.total / total if total else 0.0
        lines.append(f"| {module.name} | {len(module.seconds)} | {module.total:.1f} | {share:.1%} "
                     f"| `{test}` ({seconds:.1f}) |")
    tests = sum(len(module.seconds) for module in modules.values())
    lines.append(f"| all {len(modules)} modules | {tests} | {total:.1f} | 100% | |")
    return "\n".join(lines)


# a row of the table: "| test_x.py | 8 | 497.9 | 19.4% | ..."
ROW = re.compile(r"^\|\s*(test_\w+\.py)\s*\|\s*\d+\s*\|\s*(\d+(?:\.\d+)?)\s*\|")


def recorded(page: Path) -> dict[str, float]:
    """Each module's seconds in `page`'s table (empty when the page or its table is missing):
    the suite starts its longest modules first by them (tests/python/conftest.py)."""
    content = page.read_text(encoding="utf-8") if page.exists() else ""
    start, end = content.find(BEGIN), content.find(END)
    if start < 0 or end < start:
        return {}
    rows = (ROW.match(line) for line in content[start:end].splitlines())
    return {row.group(1): float(row.group(2)) for row in rows if row}


def update(page: Path, text: str) -> None:
    """Replace the table between BEGIN and END in `page` (both must be there)."""
    content = page.read_text(encoding="utf-8")
    start, end = content.find(BEGIN), content.find(END)
    if start < 0 or end < start:
        raise SystemExit(f"{page} has no {BEGIN} ... {END} block to replace")
    page.write_text(content[:start + len(BEGIN)] + "\n" + text + "\n" + content[end:], encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.suite_times",
                                     description="Each test module's time, from a pytest run's "
                                                 "JUnit XML or --durations=0 output.")
    parser.add_argument("report", type=Path, help="pytest --junitxml file, or --durations=0 output")
    parser.add_argument("--update", type=Path, default=None,
                        help=f"rewrite the table between {BEGIN!r} and {END!r} in this page")
    args = parser.parse_args(argv)
    text = table(read(args.report))
    if args.update:
        update(args.update, text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
