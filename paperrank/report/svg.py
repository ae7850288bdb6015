"""A small SVG drawing kit for the report's plots: a canvas, linear scales with round ticks,
axes and legends, written straight to SVG text.

Why not matplotlib: its figures saved as SVG take most of a report's time and weight (on
ICLR 2026, about 11 of 15 s: CHANGELOG.md) for bars, lines, dots and labels a few lines of SVG
draw as well.  Every number is written to 0.1 px, every text node and attribute
is escaped, and the same data gives the same bytes.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from urllib.parse import quote

from markupsafe import Markup

FONT = "'DejaVu Sans','Liberation Sans',Arial,sans-serif"
TEXT = "#222222"
MUTED = "#555555"
GRID = "#EEEEEE"
CHAR_WIDTH = 0.6  # a sans-serif character's width, in font sizes (enough for DejaVu Sans)
# characters kept as they are in the SVG data URI: all but those an HTML attribute (", &) or a
# URL (%, #) would read otherwise, and non-ASCII (percent-encoded as UTF-8)
URI_SAFE = " <>/=:;,.'()-_!*~$@?[]{}|^`+"


def num(value: float) -> str:
    """A coordinate to 0.1 px, without a trailing .0 (a tenth of a pixel is below what a screen
    or a printer shows)."""
    text = f"{round(float(value), 1):.1f}"
    text = text[:-2] if text.endswith(".0") else text
    return "0" if text == "-0" else text


def escape(text: object) -> str:
    """Text or an attribute value as SVG reads it literally (& < > and both quotes)."""
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace("'", "&#39;").replace('"', "&#34;"))


def text_width(text: str, size: float) -> float:
    """Roughly how wide `text` is at font size `size`: for margins and legends."""
    return len(text) * size * CHAR_WIDTH


@dataclass
class Linear:
    """A linear scale from a domain (data) to a range (pixels)."""

    low: float
    high: float
    start: float
    end: float

    def __call__(self, value: float) -> float:
        span = self.high - self.low
        if span == 0:
            return (self.start + self.end) / 2
        return self.start + (float(value) - self.low) / span * (self.end - self.start)

    def ticks(self, count: int = 5) -> list[float]:
        """Round values inside the domain, about `count` of them (1, 2 or 5 times a power of 10)."""
        return nice_ticks(self.low, self.high, count)


def nice_step(span: float, count: int) -> float:
    if span <= 0 or not math.isfinite(span):
        return 1.0
    raw = span / max(count, 1)
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if factor * power >= raw:
            return factor * power
    return 10 * power


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    if high < low:
        low, high = high, low
    if high == low:
        return [low]
    step = nice_step(high - low, count)
    first = math.ceil(low / step - 1e-9)
    ticks = []
    k = first
    while k * step <= high + step * 1e-9:
        ticks.append(round(k * step, 10))
        k += 1
    return ticks


def nice_domain(low: float, high: float, count: int = 5, pad: float = 0.0) -> tuple[float, float]:
    """The domain widened to round ends (and by `pad` of its span first)."""
    if high < low:
        low, high = high, low
    if high == low:
        return low - 1, high + 1
    span = high - low
    low, high = low - pad * span, high + pad * span
    step = nice_step(high - low, count)
    return math.floor(low / step + 1e-9) * step, math.ceil(high / step - 1e-9) * step


def tick_label(value: float, step: float | None = None) -> str:
    """A tick's label with as many decimals as its step needs."""
    decimals = 0 if step is None or step >= 1 else min(4, max(0, -math.floor(math.log10(step) + 1e-9)))
    if step is not None and step < 1 and round(step * 10 ** decimals) % 10 == 5 and step < 0.5:
        decimals += 1  # 0.25 steps
    text = f"{value:.{decimals}f}"
    return "0" if text.strip("-0.") == "" else text


@dataclass
class Canvas:
    """An SVG picture built element by element; `svg()` writes it."""

    width: float
    height: float
    parts: list[str] = field(default_factory=list)

    def add(self, element: str) -> None:
        self.parts.append(element)

    def rect(self, x: float, y: float, w: float, h: float, fill: str, stroke: str | None = None) -> None:
        extra = f" stroke='{stroke}'" if stroke else ""
        self.add(f"<rect x='{num(x)}' y='{num(y)}' width='{num(w)}' height='{num(h)}' fill='{fill}'{extra}/>")

    def rects(self, boxes: Iterable[tuple[float, float, float, float]], fill: str) -> None:
        """Many rectangles of one colour as ONE path (a closed sub-path each)."""
        d = "".join(f"M{num(x)} {num(y)}h{num(w)}v{num(h)}h{num(-w)}z" for x, y, w, h in boxes
                    if w != 0 and h != 0)
        if d:
            self.add(f"<path d='{d}' fill='{fill}'/>")

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str, width: float = 1,
             dash: str | None = None) -> None:
        extra = f" stroke-dasharray='{dash}'" if dash else ""
        self.add(f"<line x1='{num(x1)}' y1='{num(y1)}' x2='{num(x2)}' y2='{num(y2)}' "
                 f"stroke='{stroke}' stroke-width='{num(width)}'{extra}/>")

    def segments(self, lines: Iterable[tuple[float, float, float, float]], stroke: str,
                 width: float = 1) -> None:
        """Many straight lines of one colour as ONE path."""
        d = "".join(f"M{num(a)} {num(b)}L{num(c)} {num(e)}" for a, b, c, e in lines)
        if d:
            self.add(f"<path d='{d}' stroke='{stroke}' stroke-width='{num(width)}' fill='none'/>")

    def dots(self, points: Iterable[tuple[float, float]], fill: str, r: float = 2.5) -> None:
        """Many dots of one colour as ONE path (two arcs a dot)."""
        d = "".join(f"M{num(x - r)} {num(y)}a{num(r)} {num(r)} 0 1 0 {num(2 * r)} 0"
                    f"a{num(r)} {num(r)} 0 1 0 {num(-2 * r)} 0z" for x, y in points)
        if d:
            self.add(f"<path d='{d}' fill='{fill}'/>")

    def triangles(self, points: Iterable[tuple[float, float]], fill: str, size: float = 4) -> None:
        """Downward triangles (an interval running past the axis' end) centred on the points."""
        d = "".join(f"M{num(x - size)} {num(y - size)}h{num(2 * size)}l{num(-size)} {num(2 * size)}z"
                    for x, y in points)
        if d:
            self.add(f"<path d='{d}' fill='{fill}'/>")

    def text(self, x: float, y: float, content: object, size: float = 9, anchor: str = "start",
             fill: str = TEXT, weight: str | None = None, rotate: float | None = None,
             baseline: str | None = None) -> None:
        extra = f" text-anchor='{anchor}'" if anchor != "start" else ""
        if size != 9:
            extra += f" font-size='{num(size)}'"
        if fill != TEXT:
            extra += f" fill='{fill}'"
        if weight:
            extra += f" font-weight='{weight}'"
        if baseline:
            extra += f" dominant-baseline='{baseline}'"
        if rotate is not None:
            extra += f" transform='rotate({num(rotate)} {num(x)} {num(y)})'"
        self.add(f"<text x='{num(x)}' y='{num(y)}'{extra}>{escape(content)}</text>")

    def svg(self) -> str:
        return (f"<svg xmlns='http://www.w3.org/2000/svg' width='{num(self.width)}' "
                f"height='{num(self.height)}' viewBox='0 0 {num(self.width)} {num(self.height)}' "
                f"font-family=\"{FONT}\" font-size='9' fill='{TEXT}'>"
                f"<rect width='100%' height='100%' fill='#fff'/>" + "".join(self.parts) + "</svg>")


def x_axis(canvas: Canvas, scale: Linear, y: float, label: str | None = None,
           ticks: Sequence[float] | None = None, grid_to: float | None = None,
           labels: Sequence[str] | None = None, size: float = 8.5) -> None:
    """A bottom axis at height `y`: ticks, their labels, optional grid lines up to `grid_to`."""
    values = list(ticks if ticks is not None else scale.ticks())
    step = values[1] - values[0] if len(values) > 1 else None
    if grid_to is not None:
        canvas.segments(((scale(v), grid_to, scale(v), y) for v in values), GRID, 0.6)
    canvas.line(min(scale.start, scale.end), y, max(scale.start, scale.end), y, MUTED, 0.8)
    canvas.segments(((scale(v), y, scale(v), y + 3.5) for v in values), MUTED, 0.8)
    for i, v in enumerate(values):
        canvas.text(scale(v), y + 13, labels[i] if labels else tick_label(v, step), size, "middle")
    if label:
        canvas.text((scale.start + scale.end) / 2, y + 27, label, 9, "middle")


def y_axis(canvas: Canvas, scale: Linear, x: float, label: str | None = None,
           ticks: Sequence[float] | None = None, grid_to: float | None = None) -> None:
    """A left axis at `x`: ticks, their labels, optional grid lines across to `grid_to`."""
    values = list(ticks if ticks is not None else scale.ticks())
    step = values[1] - values[0] if len(values) > 1 else None
    if grid_to is not None:
        canvas.segments(((x, scale(v), grid_to, scale(v)) for v in values), GRID, 0.6)
    canvas.line(x, min(scale.start, scale.end), x, max(scale.start, scale.end), MUTED, 0.8)
    canvas.segments(((x - 3.5, scale(v), x, scale(v)) for v in values), MUTED, 0.8)
    for v in values:
        canvas.text(x - 5, scale(v) + 3, tick_label(v, step), 8.5, "end")
    if label:
        middle = (scale.start + scale.end) / 2
        canvas.text(x - 34, middle, label, 9, "middle", rotate=-90)


@dataclass(frozen=True)
class Key:
    """One legend entry: a swatch (`box`, `line`, `dashed`, `dot`, `triangle`) and its label."""

    label: str
    colour: str
    mark: str = "box"


def legend(canvas: Canvas, keys: Sequence[Key], x: float, y: float, width: float,
           size: float = 8) -> float:
    """The keys in rows from (x, y), wrapping at `width`; returns the height used."""
    cursor, row = x, 0
    for key in keys:
        needed = 16 + text_width(key.label, size) + 12
        if cursor > x and cursor + needed > x + width:
            cursor, row = x, row + 1
        top = y + row * 14
        if key.mark == "box":
            canvas.rect(cursor, top + 1, 10, 8, key.colour)
        elif key.mark in ("line", "dashed"):
            canvas.line(cursor, top + 5, cursor + 12, top + 5, key.colour, 2 if key.mark == "line" else 1,
                        "4 2" if key.mark == "dashed" else None)
        elif key.mark == "dot":
            canvas.dots([(cursor + 5, top + 5)], key.colour, 3)
        elif key.mark == "triangle":
            canvas.triangles([(cursor + 5, top + 5)], key.colour, 3.5)
        canvas.text(cursor + 16, top + 8.5, key.label, size)
        cursor += needed
    return (row + 1) * 14


def data_uri(svg: str) -> Markup:
    """The SVG as a data URI, percent-encoded (a third smaller than base64 for SVG's text).
    Markup: the template must not escape it again; it holds no `"` and no `&` (both are
    percent-encoded), so it cannot leave its attribute."""
    return Markup("data:image/svg+xml," + quote(svg, safe=URI_SAFE))
