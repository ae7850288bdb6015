"""The SQL of `paperrank rank-sets`, rendered by dbt from the models' macros
(paperrank/ranksets/cache.py keeps it outside git, named after a hash of its sources).

The command must run the same SQL as the rank-set models without paying a parse of the dbt
project (seconds, and tens of seconds on a busy machine) on every run. So the macros
(macros/rank_sets/rank_sets_query.sql and rank_sets_scaled_query.sql, which call the models'
own macros) are compiled here, on one parse, with the `published` target (an in-memory DuckDB:
no warehouse is opened).

The options reach the macros as sentinel numbers that appear nowhere else, and each sentinel
is then replaced by a DuckDB parameter ($coverage, $draws, $seed, $tau) that the command binds
as a checked number. Rendering twice with two different sentinel sets and getting the same
text proves that every use of an option is that plain substitution (no Jinja arithmetic on an
option, no option left in the text).
"""
from __future__ import annotations

import contextlib
import io
import json
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
INPUT = "rank_set_input"
PARAMETERS = ("coverage", "draws", "seed", "tau")
# Each macro call: (file name, macro, with tau). The exact path's query reads item_key,
# item_number, estimate, se; the scaled one item_key, estimate, se.
QUERIES = {
    "exact.sql": ("rank_sets_query", False),
    "exact_tau.sql": ("rank_sets_query", True),
    "scaled.sql": ("rank_sets_scaled_query", False),
    "scaled_tau.sql": ("rank_sets_scaled_query", True),
}
SETTINGS = "settings.json"
# Two sets of sentinels, valid options that no macro writes by itself.
SENTINELS = (
    {"coverage": 0.918273645546372, "draws": 98765, "seed": 8765432123456789, "tau": 7654321},
    {"coverage": 0.827364554637291, "draws": 87654, "seed": 7654321987654321, "tau": 6543219},
)
HEADER = ("-- Rendered by dbt from macros/rank_sets/{macro}.sql (paperrank/ranksets/render.py),\n"
          "-- cached under a hash of its sources: a change of a macro renders it again.\n")


class RenderFailed(RuntimeError):
    """dbt could not parse the project or compile a macro."""


@contextlib.contextmanager
def dbt_session(root: Path = REPO) -> Iterator[Any]:
    """A function compile(jinja) -> SQL on one parse of the project at `root` (target `published`)."""
    from dbt.cli.main import dbtRunner  # dbt's import is slow: only here

    with tempfile.TemporaryDirectory(prefix="paperrank-rank-sets-render-") as scratch:
        common = ["--project-dir", str(root), "--profiles-dir", str(root), "--target", "published",
                  "--quiet", "--no-write-json", "--no-use-colors", "--no-partial-parse",
                  "--target-path", str(Path(scratch) / "target"),
                  "--log-path", str(Path(scratch) / "logs")]
        with contextlib.redirect_stdout(io.StringIO()):
            parsed = dbtRunner().invoke(["parse", *common])
        _raise_for(parsed)
        manifest: Any = parsed.result
        runner = dbtRunner(manifest=manifest)

        def compile_inline(jinja: str) -> str:
            with contextlib.redirect_stdout(io.StringIO()):
                result = runner.invoke(["compile", "--inline", jinja, *common])
            _raise_for(result)
            compiled: Any = result.result
            return str(compiled.results[0].node.compiled_code)

        yield compile_inline


def _raise_for(result: Any) -> None:
    if not result.success or result.result is None:
        lines = str(result.exception).strip().splitlines() if result.exception else ["dbt failed"]
        raise RenderFailed(lines[-1].strip())


def query_call(macro: str, options: dict[str, Any]) -> str:
    """The inline Jinja that renders `macro` over the command's input relation."""
    return f"{{{{ {macro}('{INPUT}', {json.dumps(options)}) }}}}"


def parameterised(sql: str, sentinels: dict[str, Any], with_tau: bool) -> str:
    """`sql` with each sentinel replaced by its DuckDB parameter; refuses a sentinel that is
    missing (an option the macro ignores) or a parameter-like text already there."""
    if "$" in sql:
        raise RenderFailed("the rendered SQL already holds a '$': parameters would be ambiguous")
    for name in PARAMETERS:
        if name == "tau" and not with_tau:
            continue
        text = repr(float(sentinels[name])) if name == "coverage" else str(int(sentinels[name]))
        pattern = re.compile(rf"(?<![0-9.]){re.escape(text)}(?![0-9])")
        sql, count = pattern.subn(f"${name}", sql)
        if count == 0:
            raise RenderFailed(f"the option {name} does not reach the rendered SQL as a number")
    return sql


def render_all(compile_inline: Any) -> dict[str, str]:
    """Every file's text, rendered now: the four queries and the settings."""
    files = {}
    for file, (macro, with_tau) in QUERIES.items():
        texts = []
        for sentinels in SENTINELS:
            options = {name: value for name, value in sentinels.items() if with_tau or name != "tau"}
            texts.append(parameterised(compile_inline(query_call(macro, options)), sentinels, with_tau))
        if texts[0] != texts[1]:
            raise RenderFailed(f"{macro} does more with an option than write it as a number")
        files[file] = HEADER.format(macro=macro) + texts[0].strip() + "\n"
    defaults = compile_inline("{{ tojson(rank_sets_settings()) }}")
    files[SETTINGS] = json.dumps(json.loads(defaults), indent=2, sort_keys=True) + "\n"
    return files


def render_files(root: Path = REPO) -> dict[str, str]:
    """Every file of the command's SQL, rendered now from the macros of the project at `root`."""
    with dbt_session(root) as compile_inline:
        return render_all(compile_inline)
