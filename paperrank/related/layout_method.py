"""The maps' constants (paperrank.related.layout), light to import: refresh hashes them into the
cache key of every venue's maps before it knows whether anything must be computed.

Not user settings: they define the layout, so changing one (or VERSION) recomputes the maps of
every venue on the next refresh, and nothing else.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass

VERSION = "1"
FFT_FROM = 2_000          # papers from which openTSNE's FFT gradient is faster than Barnes-Hut


@dataclass(frozen=True)
class LayoutMethod:
    """The layout's constants; `key()` hashes them with VERSION (part of the cache key)."""

    perplexity: float = 15.0
    early_iterations: int = 125
    iterations: int = 125
    exaggeration: float = 12.0
    neighbours: int = 5       # trustworthiness's neighbours
    seed: int = 0
    decimals: int = 6
    sample_above: int = 20_000   # more papers: t-SNE on an even sample, the rest placed (layout.py)
    sample_papers: int = 10_000  # the sample's size
    place_neighbours: int = 5    # a paper off the sample sits at the mean of this many nearest in it
    place_trees: int = 10        # trees of the Annoy index that finds them

    def key(self) -> str:
        text = json.dumps({"version": VERSION, "fft_from": FFT_FROM, **asdict(self)}, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


LAYOUT_METHOD = LayoutMethod()


