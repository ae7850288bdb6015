"""The package's shape, read from the source: dependencies flow one way, the command layer is
the only one that knows click, no two modules import each other, no product file is long.

The import graph is built from the AST of every module under paperrank/, with every import
counted wherever it stands (inside a function, under TYPE_CHECKING): an import hidden in a
function is still a dependency a reader has to follow.  docs/architecture.md draws the order.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "paperrank"

# A package imports only packages before it (docs/architecture.md).
ORDER = ["core", "ingest", "related", "classify", "ranksets", "engines", "quality", "report",
         "publish", "pipeline", "picks", "cli"]
COMMAND_LAYER = "cli"
# the console entry point `python -m paperrank`: it starts the command layer
ENTRY_POINTS = {"paperrank.__main__"}
MAX_LINES = 500


@dataclass(frozen=True)
class Import:
    """One import statement's target module, where it stands."""

    source: str  # importing module, dotted
    target: str  # imported module (a module of the tree when it is one, else the name as written)
    line: int


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(root: Path) -> dict[str, Path]:
    """Every module of the tree by dotted name."""
    return {module_name(path, root): path for path in sorted(root.rglob("*.py"))}


def _absolute(node: ast.ImportFrom, source: str, is_package: bool) -> str:
    """The module an ImportFrom names, its relative dots resolved against `source`."""
    if node.level == 0:
        return node.module or ""
    base = source.split(".") if is_package else source.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports(root: Path) -> list[Import]:
    """Every import of every module of the tree (function-local ones included).

    `from package import name` counts as an import of the module package.name when there is
    one (the name is a module), else of the package itself."""
    known = modules(root)
    found = []
    for source, path in known.items():
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                found += [Import(source, alias.name, node.lineno) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _absolute(node, source, is_package)
                for alias in node.names:
                    child = f"{base}.{alias.name}"
                    found.append(Import(source, child if child in known else base, node.lineno))
    return found


def package_of(module: str) -> str | None:
    """The top package of a module of the tree (`paperrank.report.render` -> report); None for
    the root's own modules (`paperrank`, `paperrank.__main__`) and for outside modules."""
    parts = module.split(".")
    if parts[0] != "paperrank" or len(parts) < 2 or parts[1] == "__main__":
        return None
    return parts[1]


def upward_imports(found: list[Import], order: list[str]) -> list[str]:
    """Imports of a package later in `order` than the importer's (or of one not in it)."""
    problems: list[str] = []
    for edge in dict.fromkeys(found):  # one line per statement and module
        mine, theirs = package_of(edge.source), package_of(edge.target)
        if mine is None or theirs is None or mine == theirs:
            continue
        if mine not in order or theirs not in order:
            problems.append(f"{edge.source}:{edge.line} imports {edge.target}: package "
                            f"{mine if mine not in order else theirs} is not in the order")
        elif order.index(theirs) > order.index(mine):
            problems.append(f"{edge.source}:{edge.line} imports {edge.target} "
                            f"({mine} comes before {theirs})")
    return problems


def command_layer_leaks(found: list[Import]) -> list[str]:
    """Modules outside the command layer that import click or the command layer."""
    problems: list[str] = []
    for edge in dict.fromkeys(found):
        if package_of(edge.source) == COMMAND_LAYER or edge.source in ENTRY_POINTS:
            continue
        top = edge.target.split(".")[0]
        if top == "click" or edge.target == f"paperrank.{COMMAND_LAYER}" \
                or edge.target.startswith(f"paperrank.{COMMAND_LAYER}."):
            problems.append(f"{edge.source}:{edge.line} imports {edge.target}")
    return problems


def module_cycles(found: list[Import], known: set[str]) -> list[list[str]]:
    """Every set of modules that import each other, directly or round a circle (Tarjan's
    strongly connected components of more than one module, or a module importing itself)."""
    graph: dict[str, set[str]] = {name: set() for name in known}
    for edge in found:
        if edge.target in known:
            graph[edge.source].add(edge.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(node: str) -> None:  # recursion depth is bounded by the tree's ~200 modules
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1 or node in graph[node]:
                cycles.append(sorted(component))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return cycles


def long_files(root: Path, limit: int = MAX_LINES) -> list[str]:
    return [f"{path.relative_to(root.parent)}: {lines} lines"
            for path in sorted(root.rglob("*.py"))
            if (lines := len(path.read_text(encoding="utf-8").splitlines())) > limit]


# The publish doors: what the pipeline may import from publish/ (docs/architecture.md).
PUBLISH_DOOR = {"paperrank.publish.delivery"}


def publish_imports_of(found: list[Import], package: str) -> set[str]:
    """The modules of publish/ that `package`'s modules import."""
    return {i.target for i in found
            if i.source.startswith(f"paperrank.{package}.") and i.target.startswith("paperrank.publish")}


def test_no_package_imports_a_later_one() -> None:
    problems = upward_imports(imports(ROOT), ORDER)
    assert not problems, "imports against the package order:\n" + "\n".join(problems)


def test_only_the_command_layer_knows_click() -> None:
    problems = command_layer_leaks(imports(ROOT))
    assert not problems, "click or paperrank.cli outside paperrank/cli:\n" + "\n".join(problems)


def test_the_pipeline_publishes_through_one_door() -> None:
    """The pipeline reaches publish/ only through its delivery door: everything a publication
    needs (the lock, the switch, the history, the CSVs, the page) happens behind it."""
    assert publish_imports_of(imports(ROOT), "pipeline") == PUBLISH_DOOR


def test_no_two_modules_import_each_other() -> None:
    cycles = module_cycles(imports(ROOT), set(modules(ROOT)))
    assert not cycles, "modules that import each other:\n" + "\n".join(
        " <-> ".join(cycle) for cycle in cycles)


def test_no_product_file_is_long() -> None:
    problems = long_files(ROOT)
    assert not problems, f"product files over {MAX_LINES} lines (split them by job):\n" + \
        "\n".join(problems)


def test_every_package_is_in_the_order() -> None:
    packages = sorted(p.name for p in ROOT.iterdir() if (p / "__init__.py").exists())
    assert packages == sorted(ORDER)


def test_the_graph_sees_hidden_and_relative_imports(tmp_path: Path) -> None:
    """The checks above read what they should: an upward import inside a function, a relative
    import, click in the library and a circle of two modules are each found."""
    root = tmp_path / "paperrank"
    files = {
        "__init__.py": "",
        "core/__init__.py": "",
        "core/a.py": "def f():\n    from paperrank.report import b\n",
        "core/c.py": "from . import d\n",
        "core/d.py": "from .c import x\nimport click\n",
        "report/__init__.py": "",
        "report/b.py": "",
        "cli/__init__.py": "import click\n",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    found = imports(root)
    assert upward_imports(found, ["core", "report", "cli"]) == [
        "paperrank.core.a:2 imports paperrank.report.b (core comes before report)"]
    assert command_layer_leaks(found) == ["paperrank.core.d:2 imports click"]
    assert module_cycles(found, set(modules(root))) == [["paperrank.core.c", "paperrank.core.d"]]
    (root / "publish").mkdir()
    for name in ("__init__.py", "versions.py"):
        (root / "publish" / name).write_text("", encoding="utf-8")
    (root / "core" / "a.py").write_text("from paperrank.publish import versions\n", encoding="utf-8")
    assert publish_imports_of(imports(root), "core") == {"paperrank.publish.versions"}
    (root / "core" / "a.py").write_text("x = 1\n" * (MAX_LINES + 1), encoding="utf-8")
    assert long_files(root) == [f"paperrank/core/a.py: {MAX_LINES + 1} lines"]
