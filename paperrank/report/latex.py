"""Titles as a reader sees them: the LaTeX authors type into OpenReview turned into plain text.

`Huxley-G\\"odel Machine` reads as `Huxley-Gödel Machine`, `MoE$^3$` as `MoE³`, `$\\alpha$-Nets`
as `α-Nets`, `\\emph{fast}` as `fast`.  What cannot be turned into a character loses only its
markup (backslash, braces, dollars).  The result is plain text; the template still escapes it.
"""

from __future__ import annotations

import re
import unicodedata

# accent command -> combining character (`\"o` -> o + U+0308 -> ö after NFC)
ACCENTS = {
    '"': "\u0308", "'": "\u0301", "`": "\u0300", "^": "\u0302", "~": "\u0303", "=": "\u0304",
    ".": "\u0307", "u": "\u0306", "v": "\u030c", "H": "\u030b", "c": "\u0327", "k": "\u0328",
    "r": "\u030a",
}
SYMBOLS = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε",
    "zeta": "ζ", "eta": "η", "theta": "θ", "iota": "ι", "kappa": "κ", "lambda": "λ", "mu": "μ",
    "nu": "ν", "xi": "ξ", "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ", "phi": "φ",
    "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω", "Gamma": "Γ", "Delta": "Δ",
    "Theta": "Θ", "Lambda": "Λ", "Pi": "Π", "Sigma": "Σ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
    "infty": "∞", "times": "×", "cdot": "·", "approx": "≈", "leq": "≤", "le": "≤", "geq": "≥",
    "ge": "≥", "neq": "≠", "pm": "±", "to": "→", "rightarrow": "→", "leftarrow": "←",
    "ell": "ℓ", "partial": "∂", "nabla": "∇", "sim": "∼", "in": "∈", "star": "⋆", "dagger": "†",
    "ss": "ß", "o": "ø", "O": "Ø", "ae": "æ", "AE": "Æ", "aa": "å", "AA": "Å", "l": "ł", "L": "Ł",
    "i": "ı", "textendash": "–", "textemdash": "—", "ldots": "…", "dots": "…", "S": "§",
}
SUPERSCRIPT = str.maketrans("0123456789+-=()ni*", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱ*")
SUBSCRIPT = str.maketrans("0123456789+-=()", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎")
ESCAPED = {"&": "&", "%": "%", "$": "$", "#": "#", "_": "_", "{": "{", "}": "}", " ": " ",
           ",": " ", ";": " ", "!": "", "\\": " "}

_ACCENT = re.compile(r"""\\(["'`^~=.]|[uvHckr](?![A-Za-z]))\s*(?:\{\s*\\?([A-Za-z])\s*\}|\\?([A-Za-z]))""")
_BRACED_ACCENT = re.compile(r"""\{\\(["'`^~=.])([A-Za-z])\}""")
_SCRIPT = re.compile(r"([\^_])(?:\{([^{}]*)\}|(\\[A-Za-z]+|.))")
_COMMAND = re.compile(r"\\([A-Za-z]+)")
_MATH = re.compile(r"(?<!\\)\$(.*?)(?<!\\)\$")


def _accent(match: re.Match[str]) -> str:
    letter = match.group(2) or match.group(3)
    return unicodedata.normalize("NFC", letter + ACCENTS[match.group(1)])


def _script(match: re.Match[str]) -> str:
    body = match.group(2) if match.group(2) is not None else match.group(3)
    body = _COMMAND.sub(lambda m: SYMBOLS.get(m.group(1), m.group(1)), body)
    table = SUPERSCRIPT if match.group(1) == "^" else SUBSCRIPT
    mapped = body.translate(table)
    if all(ch in "".join(chr(v) for v in table.values()) for ch in mapped):
        return mapped
    return ("^" if match.group(1) == "^" else "_") + body if len(body) == 1 else body


def _math(match: re.Match[str]) -> str:
    return _SCRIPT.sub(_script, match.group(1))


def _command(match: re.Match[str]) -> str:
    """A known symbol becomes its character; a command taking an argument (`\\emph{x}`) goes,
    its argument stays; any other word stays as a word (`\\LaTeX` reads `LaTeX`)."""
    name = match.group(1)
    if name in SYMBOLS:
        return SYMBOLS[name]
    following = match.string[match.end():match.end() + 2]
    return "" if following.startswith("{") and following != "{}" else name


def to_text(title: str) -> str:
    """`title` without its LaTeX markup, as one line of plain text."""
    text = _BRACED_ACCENT.sub(lambda m: unicodedata.normalize("NFC", m.group(2) + ACCENTS[m.group(1)]), title)
    text = _ACCENT.sub(_accent, text)
    text = _MATH.sub(_math, text)
    text = re.sub(r"\\([&%$#_{} ,;!\\])", lambda m: ESCAPED[m.group(1)], text)
    text = _COMMAND.sub(_command, text)
    text = text.replace("{", "").replace("}", "").replace("~", " ")
    text = text.replace("``", "\u201c").replace("''", "\u201d").replace("---", "—").replace("--", "–")
    return " ".join(text.split())
