"""docs/tests.md's table of module times (bench/suite_times.py), from the two records pytest
keeps of a run: its JUnit XML and its --durations=0 lines, the same table from either."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.suite_times import BEGIN, END, main, read, recorded, table

# one run as pytest-xdist reports it (with loadgroup's "@group" suffixes), parameters, a class
JUNIT = """<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" tests="5">
<testcase classname="tests.python.test_slow" name="test_builds@test_slow" time="90.5" />
<testcase classname="tests.python.test_slow" name="test_reads@test_slow" time="2.0" />
<testcase classname="tests.python.test_spark_engine" name="test_agree[a@b]@spark" time="40.25" />
<testcase classname="tests.python.test_fast" name="test_one[x]" time="0.5" />
<testcase classname="tests.python.test_fast.TestGroup" name="test_two" time="0.25" />
</testsuite></testsuites>
"""
DURATIONS = """============================= slowest durations =============================
80.00s setup    tests/python/test_slow.py::test_builds@test_slow
10.50s call     tests/python/test_slow.py::test_builds@test_slow
2.00s call     tests/python/test_slow.py::test_reads@test_slow
40.25s call     tests/python/test_spark_engine.py::test_agree[a@b]@spark
0.50s call     tests/python/test_fast.py::test_one[x]
0.25s call     tests/python/test_fast.py::TestGroup::test_two
(3 durations < 0.005s hidden.  Use -vv to show these durations.)
========================= 5 passed in 133.50s (0:02:13) =========================
"""
EXPECTED = """| module | tests | seconds | share | slowest test (seconds) |
|---|---:|---:|---:|---|
| test_slow.py | 2 | 92.5 | 69.3% | `test_builds` (90.5) |
| test_spark_engine.py | 1 | 40.2 | 30.1% | `test_agree[a@b]` (40.2) |
| test_fast.py | 2 | 0.8 | 0.6% | `test_one[x]` (0.5) |
| all 3 modules | 5 | 133.5 | 100% | |"""


@pytest.mark.parametrize(("name", "record"), [("run.xml", JUNIT), ("durations.txt", DURATIONS)])
def test_one_row_per_module_slowest_first(tmp_path: Path, name: str, record: str) -> None:
    path = tmp_path / name
    path.write_text(record, encoding="utf-8")
    modules = read(path)
    assert table(modules) == EXPECTED
    assert set(modules["test_fast.py"].seconds) == {"test_one[x]", "TestGroup::test_two"}


def test_update_rewrites_only_the_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report, page = tmp_path / "run.xml", tmp_path / "tests.md"
    report.write_text(JUNIT, encoding="utf-8")
    page.write_text(f"# Tests\n\nbefore\n{BEGIN}\n| old | table |\n{END}\nafter\n", encoding="utf-8")
    assert main([str(report), "--update", str(page)]) == 0
    assert page.read_text(encoding="utf-8") == f"# Tests\n\nbefore\n{BEGIN}\n{EXPECTED}\n{END}\nafter\n"
    assert capsys.readouterr().out == EXPECTED + "\n"


def test_a_record_without_durations_is_refused(tmp_path: Path) -> None:
    empty = tmp_path / "out.txt"
    empty.write_text("5 passed in 1.00s\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="no test durations"):
        read(empty)
    page = tmp_path / "tests.md"
    page.write_text("no markers\n", encoding="utf-8")
    report = tmp_path / "run.xml"
    report.write_text(JUNIT, encoding="utf-8")
    with pytest.raises(SystemExit, match="no <!-- module times"):
        main([str(report), "--update", str(page)])
    assert page.read_text(encoding="utf-8") == "no markers\n"


def test_the_recorded_times_order_the_suite_longest_first(tmp_path: Path) -> None:
    """What the suite's collection order reads back from the page (conftest.py): each module's
    seconds as the table wrote them; nothing from a page without the table."""
    page = tmp_path / "tests.md"
    page.write_text(f"# Tests\n\n{BEGIN}\n{EXPECTED}\n{END}\n| test_outside.py | 1 | 9.0 | x | |\n",
                    encoding="utf-8")
    assert recorded(page) == {"test_slow.py": 92.5, "test_spark_engine.py": 40.2, "test_fast.py": 0.8}
    assert recorded(tmp_path / "missing.md") == {}
    page.write_text(EXPECTED, encoding="utf-8")
    assert recorded(page) == {}


def test_the_suite_collects_its_longest_modules_first(request: pytest.FixtureRequest) -> None:
    """This session's own order (whatever it selected): modules in the order of docs/tests.md's
    table, each whole."""
    seconds = recorded(Path(__file__).resolve().parents[2] / "docs" / "tests.md")
    assert len(seconds) > 40, "docs/tests.md lost its table of module times"
    modules = [item.path.name for item in request.session.items]
    order = [module for i, module in enumerate(modules) if i == 0 or modules[i - 1] != module]
    assert len(order) == len(set(order)), "a module's tests were split apart"
    known = [seconds[module] for module in order if module in seconds]
    assert known == sorted(known, reverse=True), order
