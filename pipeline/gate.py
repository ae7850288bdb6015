"""`python -m pipeline.gate [--wait] --stage S ...`: one quality gate, as a child of `rank`.

The gates are `python -m quality validate`; `pipeline.rank` runs each in a child process so
that importing great-expectations (seconds) overlaps dbt's start-up and build on another
core.  With `--wait` the child imports first, then waits for a line on stdin and checks the
marts only then, the moment the build is done.  End of input (the parent died) means stop.
"""

from __future__ import annotations

import sys

from ingest.cli import dispatch


def main(argv: list[str]) -> int:
    wait = "--wait" in argv
    rest = [a for a in argv if a != "--wait"]
    import quality.validate  # noqa: F401  (the slow import, done before waiting)

    if wait and sys.stdin.readline().strip() != "go":
        return 3
    return dispatch("python -m quality", None,
                    {"validate": ("quality.validate", "run the great-expectations suites")},
                    ["validate", *rest])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
