"""Every command the docs show runs as written, short of doing the work: each `make ...` line is
dry-run by make itself (`make -n`, so the target, its variables and its recipe expand), and each
`paperrank ...` line, written in the docs or printed by that dry run, is parsed by the CLI's own
click parser, so an option renamed, a value outside its choices, a missing argument or a file
that is not there fails here (a renamed command once left a page telling operators to run what
no longer runs). The rank-sets worked example, cheap, is run for real; the README's ICLR 2026
example is run for real, word for word, by the session fixtures (conftest.py).

A line with placeholders (`FILE`, `[--db WAREHOUSE]`, `a|b`, `...`) or an inline mention is a
synopsis, not a command: its command path and every `--option` it names must exist."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from docs_pages import MAKE_VAR, SHOWN, Shown
from project import REPO

from paperrank.cli import main

MAKE_LINES = [shown for shown in SHOWN if shown.words()[0] == "make"]
CLI_LINES = [shown for shown in SHOWN if shown.words()[0] != "make"]


def makefile_variables() -> set[str]:
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    return (set(re.findall(r"\$\(([A-Z_]+)\)", makefile)) | set(re.findall(r"\$\$\{?([A-Z_]+)", makefile))
            | set(re.findall(r"^([A-Z_]+)\s*[?:]?=", makefile, re.M)))


def make_targets() -> set[str]:
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    return set(re.findall(r"^([a-z][a-z0-9-]*):", makefile, re.MULTILINE))


def descend(words: list[str]) -> list[tuple[click.Command, list[str]]]:
    """The leaf command(s) a synopsis names (`a|b` names several), each with the words after it."""
    leaves = [(main, words)]
    done = []
    while leaves:
        command, rest = leaves.pop()
        if isinstance(command, click.Group) and rest and re.fullmatch(r"[a-z][a-z0-9-]*(\|[a-z][a-z0-9-]*)*", rest[0]):
            ctx = click.Context(command)
            for name in rest[0].split("|"):
                sub = command.get_command(ctx, name)
                if sub is None:
                    raise AssertionError(f"no such command: {name}")
                leaves.append((sub, rest[1:]))
        else:
            done.append((command, rest))
    return done


def parse(words: list[str]) -> None:
    """Parse `paperrank <words>` down to the leaf command exactly as running it would, stopping
    before the command does anything. click raises UsageError/BadParameter for what is wrong."""
    command: click.Command = main
    ctx: click.Context | None = None
    name = "paperrank"
    while True:
        ctx = command.make_context(name, list(words), parent=ctx)
        if not isinstance(command, click.Group):
            return
        rest = [*ctx._protected_args, *ctx.args]
        if not rest:
            if command.invoke_without_command:
                return
            raise click.UsageError(f"{ctx.command_path} needs a subcommand")
        name, sub, words = command.resolve_command(ctx, rest)
        assert sub is not None and name is not None
        command = sub


def missing_inputs(line: str) -> list[str]:
    """The files a command line names (a word with a folder and an extension) that are not there."""
    return [word for word in shlex.split(line)[1:]
            if "/" in word and re.search(r"\.[a-z0-9]+$", word) and not Path(word).exists()]


def parse_line(line: str) -> None:
    words = shlex.split(line)
    assert Path(words[0]).name == "paperrank", line
    parse_argv(words[1:])


def parse_argv(argv: list[str]) -> None:
    try:
        parse(argv)
    except click.exceptions.Exit as done:  # --help parses to an exit 0
        assert done.exit_code == 0, argv


@pytest.mark.parametrize("shown", CLI_LINES, ids=lambda s: f"{s.page}: {s.line}")
def test_a_paperrank_line_parses(shown: Shown, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)  # paths on the pages are relative to the checkout
    if not shown.is_synopsis():
        assert not missing_inputs(shown.line), f"{shown.line}: no such file"
        parse_line(shown.line)
        return
    for command, rest in descend(shown.words()[1:]):
        known = {"-h", "--help", *(opt for param in command.params for opt in param.opts + param.secondary_opts)}
        named = {re.split(r"[=\]]", word.lstrip("["))[0] for word in rest if word.lstrip("[").startswith("--")}
        assert named <= known, f"{shown.line}: {sorted(named - known)} not among {sorted(known)}"


# recipe lines that only hand values to paperrank (or say something): such a target is run for
# real with PAPERRANK pointed at `stub`, which prints the arguments it was given
HANDS_TO_PAPERRANK = re.compile(r"\s*(?:(?:[A-Z_]+=\S+ )*\S*/bin/paperrank\s|echo\s|test -n\s|\S*make\s)")


@pytest.fixture(scope="module")
def stub(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("docs_make") / "paperrank"
    path.write_text(f"#!{sys.executable}\nimport json, sys\nprint(json.dumps(sys.argv[1:]))\n",
                    encoding="utf-8")
    path.chmod(0o755)
    return path


@pytest.mark.parametrize("shown", MAKE_LINES, ids=lambda s: f"{s.page}: {s.line}")
def test_a_make_line_dry_runs(shown: Shown, stub: Path) -> None:
    words = shown.make_words()
    settings = [word for word in words if MAKE_VAR.match(word)]
    targets = [word for word in words if not MAKE_VAR.match(word)]
    assert targets and set(targets) <= make_targets(), f"{shown.line}: no such target"
    unknown = {MAKE_VAR.match(word).group(1) for word in settings} - makefile_variables()  # type: ignore[union-attr]
    assert not unknown, f"{shown.line}: the Makefile reads no {sorted(unknown)}"
    if shown.is_synopsis():
        return
    dry = subprocess.run(["make", "-n", "--no-print-directory", *settings, *targets], cwd=REPO,
                         capture_output=True, text=True, timeout=60)
    assert dry.returncode == 0, f"{shown.line}: {dry.stderr}"
    recipe = [line for line in dry.stdout.replace("\\\n", " ").splitlines() if line.strip()]
    if not all(HANDS_TO_PAPERRANK.match(line) for line in recipe):
        return  # a recipe that runs more than paperrank (tests, linters, rm): dry-run only
    # run: each paperrank command parses with the values the line gave, as the shell passed them
    ran = subprocess.run(["make", "--no-print-directory", "-o", "setup", "-o", "setup-spark",
                          *settings, *targets, f"PAPERRANK={stub}"], cwd=REPO, capture_output=True,
                         text=True, timeout=60)
    assert ran.returncode == 0, f"{shown.line}: {ran.stderr}"
    calls = [json.loads(line) for line in ran.stdout.splitlines() if line.startswith("[")]
    assert calls, f"{shown.line}: no paperrank command ran"
    for argv in calls:
        parse_argv(argv)


def test_the_rank_sets_example_runs_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/rank-confidence-sets.md's example, run: its CSV has a row per jurisdiction."""
    monkeypatch.chdir(REPO)
    [example] = [s for s in SHOWN if s.fenced and "pisa2018_math.csv" in s.line]
    result = CliRunner().invoke(main, shlex.split(example.line)[1:], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    header, *rows = result.output.strip().splitlines()
    assert header.startswith("id,estimate,se,rank,marginal_lower") and header.endswith("tau_best")
    assert len(rows) == sum(1 for _ in (REPO / "tests/python/fixtures/pisa2018_math.csv").open()) - 1


def test_the_pages_show_commands() -> None:
    """The patterns find what they look for (a check that cannot pass on an empty match)."""
    assert len({word for shown in MAKE_LINES for word in shown.make_words()}) >= 10
    assert sum(not shown.is_synopsis() for shown in CLI_LINES) >= 8
    assert sum(not shown.is_synopsis() for shown in MAKE_LINES) >= 20
    assert any(shown.page == "README.md" for shown in CLI_LINES)


def test_a_wrong_line_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The parser rejects what the docs must not show: an unknown option, a value outside its
    choices, a command that is not there, a missing argument, a file that is not there."""
    monkeypatch.chdir(REPO)
    for line in ("paperrank rank --taxonomi iclr2026", "paperrank classify run --taxonomy x --backend nope",
                 "paperrank ingest fil x.parquet", "paperrank classify import --taxonomy iclr2026"):
        with pytest.raises(click.UsageError):
            parse_line(line)
    assert missing_inputs("paperrank ingest file ../shared/data/no_such.parquet --venue V")
    assert not missing_inputs("paperrank rank-sets tests/python/fixtures/pisa2018_math.csv --id j")
