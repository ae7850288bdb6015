"""The cycle collector's pace for a process that runs one command and ends.

Python starts a collection every 700 new container objects, and each tenth and hundredth one
walks older and older objects. Importing dbt, pandas and great-expectations and loading dbt's
parsed project create millions of objects that live until the process ends, so a command spends
seconds of CPU collecting the same live objects again and again and frees almost nothing
(docs/architecture.md, "Speed machinery", has the seconds). The entry points (the `paperrank`
console script and the quality gates' worker) call `pace_for_a_command` first: a collection every
200,000 new objects, the older generations rarely. Garbage in reference cycles is still
collected; it only waits longer, which for a process that ends within minutes costs a few
percent of memory. This is the setting mypy uses for the same reason.
"""

from __future__ import annotations

import gc

YOUNG = 200_000  # new container objects between two collections of the youngest generation
OLDER = 30  # collections of one generation between two of the next


def pace_for_a_command() -> None:
    """Collect reference cycles at a pace that suits a process running one command."""
    gc.set_threshold(YOUNG, OLDER, OLDER)
