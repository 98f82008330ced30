"""Word-level features of a statement or passage: content words, numbers, names, negation.

These feed the lexical evidence and the conflict checks of the local judge; the sentence
encoder alone scores "fell in 1987" and "fell in 1989" as the same claim.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from itertools import pairwise
from pathlib import Path

#: The model's tokenizer (the encoder loads it; its vocabulary tells names from words).
TOKENIZER_FILE = Path(__file__).parent / "data" / "tokenizer.json"


def _wordset(words: str) -> frozenset[str]:
    return frozenset(words.split())


_POSSESSIVE = re.compile(r"(?<=[A-Za-z\u00C0-\u024F])'s\b|(?<=s)'(?=\s|$)")
_TOKEN = re.compile(
    r"\d+(?:[.,:]\d+)*(?:[a-zA-Z°%]+)?|[A-Za-z\u00C0-\u024F]+(?:[-'][A-Za-z\u00C0-\u024F]+)*"
)

STOPWORDS = _wordset(
    """a an the and or but if then than so as of at by for with from to in on into onto over
    under about after before between through during until up down out off again further once
    here there when where why how all any both each few more most other some such only own
    same too very can will just should would could may might must shall do does did doing done
    be been being is am are was were has have had having this that these those it its it's
    itself they them their theirs he him his she her hers we us our you your yours i me my
    which who whom whose what also now per via while whereas yet s let lets get gets got
    one's"""
)

NEGATIONS = _wordset(
    "not no never none nothing nobody neither nor without cannot avoid avoids lack lacks"
    " fail fails failed refuse refuses prohibit prohibits can't won't don't doesn't"
    " didn't isn't aren't wasn't weren't hasn't haven't hadn't shouldn't wouldn't couldn't"
    " mustn't needn't"
)

_UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90, "dozen": 12, "twice": 2, "once": 1,
}  # fmt: skip
_SCALES = {"hundred": 100, "thousand": 1000, "million": 10**6, "billion": 10**9, "k": 1000,
           "m": 10**6, "bn": 10**9}  # fmt: skip

#: Words after a negation that it may deny.
_SCOPE = 4

#: Names regardless of case (news text is often lower-cased).
_CALENDAR = _wordset(
    "monday tuesday wednesday thursday friday saturday sunday january february march april"
    " june july august september october november december"
)


@lru_cache(maxsize=1)
def vocabulary() -> frozenset[str]:
    """Whole words the model's tokenizer knows (a capitalised word outside it is a name)."""
    data = json.loads(TOKENIZER_FILE.read_text(encoding="utf-8"))
    return frozenset(w for w in data["model"]["vocab"] if w.isalpha())


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A light suffix-stripping stem, enough to match ``charges``/``charged``/``charge``."""
    w = word.lower().replace("’", "'")
    if w.endswith("'s"):
        w = w[:-2]
    for suffix, keep in (("ies", "y"), ("ied", "y"), ("ing", ""), ("ed", ""), ("es", ""),
                         ("s", ""), ("ly", "")):  # fmt: skip
        if w.endswith(suffix) and len(w) - len(suffix) >= 3 and not w.endswith("ss"):
            w = w[: -len(suffix)] + keep
            break
    if w.endswith("e") and len(w) > 4:
        w = w[:-1]
    return w


def _number(raw: str) -> str | None:
    digits = re.match(r"\d+(?:[.,:]\d+)*", raw)
    if digits is None:
        return None
    text = digits.group(0)
    if ":" in text:
        return ":".join(str(int(p)) for p in text.split(":") if p.isdigit())
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+", text):
        text = text.replace(",", "")
    text = text.replace(",", ".")
    try:
        value = Decimal(text)
    except InvalidOperation:
        return None
    tail = raw[digits.end() :].lower()
    if tail in _SCALES:
        value *= _SCALES[tail]
    elif tail == "s" and value >= 1000:
        pass  # the 1850s
    return _format(value)


def _format(value: Decimal) -> str:
    normal = value.normalize()
    text = format(normal, "f")
    return text


@dataclass(frozen=True)
class Features:
    """What the checks need of one statement or passage.

    Attributes:
        words: every word, lower-cased.
        content: stems of the content words (stop words and negations removed).
        sequence: stems of all words in order (for bigrams).
        numbers: normalised number values (``21,000`` and ``twenty-one thousand`` agree).
        names: lower-cased proper names, acronyms and calendar words.
        quantities: ``(value, unit)`` of each number; the unit is what it counts or ``""``.
        negation_scopes: for each negation word, the content stems of the words after it.
        surface: the content words as written (lower-cased), one per stem.
    """

    words: frozenset[str]
    content: frozenset[str]
    sequence: tuple[str, ...]
    numbers: frozenset[str]
    names: frozenset[str]
    quantities: frozenset[tuple[str, str]] = frozenset()
    negation_scopes: tuple[frozenset[str], ...] = ()
    surface: tuple[tuple[str, str], ...] = ()

    @property
    def negated(self) -> int:
        """Number of negation words; odd means negated."""
        return len(self.negation_scopes)

    @property
    def bigrams(self) -> frozenset[tuple[str, str]]:
        """Adjacent stem pairs."""
        return frozenset(pairwise(self.sequence))


def _unit(tokens: list[str], j: int, tail: str) -> str:
    """What a number counts: its attached tail (``%``, ``kHz``) or the next content word."""
    if tail:
        return stem(tail)
    if j < len(tokens):
        nxt = tokens[j].lower()
        if nxt.isalpha() and nxt not in STOPWORDS and nxt not in _SCALES:
            return stem(nxt)
        if "-" in nxt and nxt.split("-")[0] not in _UNITS:
            return stem(nxt.split("-")[0])
    return ""


def _quantities(tokens: list[str], raw: set[str] | None = None) -> set[tuple[str, str]]:
    """``(value, unit)`` for numbers in digits or words; a scale word multiplies
    (``10 million``, ``23million``); ``unit`` is what the number counts, or ``""``.
    Durations are given in seconds (unit ``duration``); ``raw`` collects the values as
    written too, so "25 days" still agrees with a bare "25"."""
    out: set[tuple[str, str]] = set()
    i = 0
    while i < len(tokens):
        low = tokens[i].lower()
        value: Decimal | None = None
        tail = ""
        if low[0].isdigit():
            parsed = _number(low)
            if parsed and ":" in parsed:
                out.add((parsed, "time"))  # a time of day: 22:10
                i += 1
                continue
            value = Decimal(parsed) if parsed else None
            tail = re.sub(r"^[\d.,:]+", "", low)
            if tail in _SCALES:
                tail = ""
        else:
            parts = low.split("-")
            count = 0
            for part in parts:
                if part not in _UNITS:
                    break
                count += 1
            if count:
                value = Decimal(sum(_UNITS[p] for p in parts[:count]))
                tail = "-".join(parts[count:])
        if value is None:
            i += 1
            continue
        j = i + 1
        while j < len(tokens) and tokens[j].lower() in _SCALES and len(tokens[j]) > 2:
            value *= _SCALES[tokens[j].lower()]
            j += 1
        unit = _unit(tokens, j, tail)
        if raw is not None:
            raw.add(_format(value))
        if unit in _DURATION_SECONDS:
            # One scale for durations, so "90 minutes" agrees with "1.5 hours" and
            # contradicts "two hours".
            value, unit = value * _DURATION_SECONDS[unit], "duration"
        out.add((_format(value), unit))
        i = j
    return out


# Stems of duration units -> seconds (months and years vary in length: left as they are).
_DURATION_SECONDS: dict[str, int] = {
    "sec": 1,
    "second": 1,
    "min": 60,
    "minut": 60,
    "hr": 3600,
    "hrs": 3600,
    "hour": 3600,
    "day": 86400,
    "week": 604800,
}


def _sentence_starts(text: str) -> set[int]:
    return {0} | {m.end() for m in re.finditer(r"[.!?:;]\s+[\"'“‘(]?|\n\s*", text)}


def features(text: str) -> Features:
    """Extract :class:`Features` from a statement or passage.

    Example:
        >>> f = features("The wall did not fall in November 1987.")
        >>> sorted(f.numbers), sorted(f.names), f.negated
        (['1987'], ['november'], 1)
    """
    vocab = vocabulary()
    text = text.replace("’", "'")
    # A possessive names the same thing: "France's capital" states a fact about France.
    text = _POSSESSIVE.sub("", text)
    matches = list(_TOKEN.finditer(text))
    tokens = [m.group(0) for m in matches]
    starts = _sentence_starts(text)
    names: set[str] = set()
    for m in matches:
        tok = m.group(0)
        low = tok.lower()
        letters = [c for c in tok if c.isalpha()]
        if low in _CALENDAR:
            names.add(low)
        elif len(letters) >= 2 and all(c.isupper() for c in letters):
            names.add(low)  # an acronym: PDF, HTTP, EU
        elif (
            tok[0].isupper()
            and low not in STOPWORDS
            # A capital at a sentence start proves nothing, unless the word is no English word.
            and (m.start() not in starts or low.split("-")[0] not in vocab)
        ):
            names.add(low)
    lows = [t.lower() for t in tokens]
    parts = [p for t in lows for p in t.split("-") if p]
    sequence = tuple(stem(p) for p in parts)
    surface: dict[str, str] = {}
    for p in parts:
        if p not in STOPWORDS and p not in NEGATIONS and p.isalnum():
            surface.setdefault(stem(p), p)
    content = frozenset(surface)
    as_written: set[str] = set()
    quantities = _quantities(tokens, as_written)
    # One scope per negation word (``negated`` counts them).
    scopes = tuple(
        frozenset(
            stem(p)
            for t in lows[i + 1 : i + 1 + _SCOPE]
            for p in t.split("-")
            if p and p not in STOPWORDS and p not in NEGATIONS
        )
        for i, t in enumerate(lows)
        if t in NEGATIONS or t.endswith("n't")
    )
    return Features(
        words=frozenset(lows) | frozenset(parts),
        content=content,
        sequence=sequence,
        numbers=frozenset(v for v, _ in quantities) | frozenset(as_written),
        quantities=frozenset(quantities),
        names=frozenset(names),
        negation_scopes=scopes,
        surface=tuple(sorted(surface.items())),
    )
