"""Values as people write them: money, percentages, dates, times, quantities, counts, ids.

:func:`find_values` reads them out of text (an answer, or a string a tool returned), each
with its span, its precision (``$1,234`` is exact to the dollar, "about 20 %" to the ten) and,
for a quantity, its value in the base unit of its dimension (metres, seconds, m/s, kg, °C).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

__all__ = ["UNITS", "Value", "find_values", "is_claimed", "to_base"]

_MONTHS = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
    "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
}  # fmt: skip

# unit word -> (dimension, factor to the base unit); temperatures are converted apart.
UNITS: dict[str, tuple[str, float]] = {
    "km": ("length", 1000.0), "kilometer": ("length", 1000.0), "kilometre": ("length", 1000.0),
    "m": ("length", 1.0), "meter": ("length", 1.0), "metre": ("length", 1.0),
    "cm": ("length", 0.01), "mm": ("length", 0.001), "mi": ("length", 1609.344),
    "mile": ("length", 1609.344), "ft": ("length", 0.3048), "feet": ("length", 0.3048),
    "foot": ("length", 0.3048), "yd": ("length", 0.9144), "yard": ("length", 0.9144),
    "s": ("time", 1.0), "sec": ("time", 1.0), "second": ("time", 1.0),
    "min": ("time", 60.0), "minute": ("time", 60.0), "h": ("time", 3600.0),
    "hr": ("time", 3600.0), "hour": ("time", 3600.0), "day": ("time", 86400.0),
    "week": ("time", 604800.0), "ms": ("time", 0.001),
    "kph": ("speed", 1 / 3.6), "km/h": ("speed", 1 / 3.6), "kmh": ("speed", 1 / 3.6),
    "mph": ("speed", 0.44704), "m/s": ("speed", 1.0), "knot": ("speed", 0.514444),
    "kg": ("mass", 1.0), "kilogram": ("mass", 1.0), "g": ("mass", 0.001),
    "gram": ("mass", 0.001), "lb": ("mass", 0.45359237), "lbs": ("mass", 0.45359237),
    "pound": ("mass", 0.45359237), "oz": ("mass", 0.0283495), "ounce": ("mass", 0.0283495),
    "c": ("temperature", 1.0), "celsius": ("temperature", 1.0),
    "f": ("temperature", 1.0), "fahrenheit": ("temperature", 1.0),
    "k": ("temperature", 1.0), "kelvin": ("temperature", 1.0),
    "byte": ("data", 1.0), "bytes": ("data", 1.0),
    "kb": ("data", 1e3), "mb": ("data", 1e6), "gb": ("data", 1e9), "tb": ("data", 1e12),
    "kilobyte": ("data", 1e3), "megabyte": ("data", 1e6), "gigabyte": ("data", 1e9),
    "terabyte": ("data", 1e12),
}  # fmt: skip
_UNIT_WORDS = sorted(
    [u for u in UNITS if len(u) > 1 or u in ("m", "s", "h", "g")], key=len, reverse=True
)
_UNIT_RE = "|".join(re.escape(u) + ("(?:e?s)?" if len(u) > 3 else "") for u in _UNIT_WORDS)

_WORD_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                 "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}  # fmt: skip
_NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_MON = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_CODES = "USD|EUR|GBP|CHF|JPY|CAD|AUD|NZD|SEK|NOK|DKK|PLN|CZK|INR|CNY|HKD|SGD|ZAR|MXN|BRL"
_MAG = r"(?:\s?(?P<mag>k|m|bn|million|billion|thousand)\b)?"
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (kind, re.compile(pattern, flags))
    for kind, pattern, flags in [
        ("date", r"\b(?P<y>\d{4})-(?P<mo>\d{2})-(?P<d>\d{2})"
         r"(?:[T ](?P<th>\d{2}):(?P<tm>\d{2})(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b", 0),
        ("date", rf"\b(?P<mon>{_MON})\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\b"
         r"(?:,?\s+(?P<y>\d{4})\b)?", re.I),
        ("date", rf"\b(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mon>{_MON})\b\.?"
         r"(?:,?\s+(?P<y>\d{4})\b)?", re.I),
        ("date", r"\b(?P<a>\d{1,2})/(?P<b>\d{1,2})/(?P<y>\d{4})\b", 0),
        ("time", r"\b(?P<h>\d{1,2})(?:[:.](?P<m>[0-5]\d))?\s*(?P<ap>[ap])\.?\s?m\b", re.I),
        # British "at 9.30": a dot between hour and minutes after a word of time
        ("time", r"(?:(?<=\bat )|(?<=\bfrom )|(?<=\buntil )|(?<=\btill )|(?<=\bby )|(?<=\bto )|"
         r"(?<=\bbefore )|(?<=\bafter )|(?<=\band )|(?<=\bor )|(?<=\bbetween )|"
         r"(?<=\bsince ))(?P<h>[01]?\d|2[0-3])\.(?P<m>[0-5]\d)\b"
         r"(?!\.\d|\s*(?:%|[$€£]|usd|eur|gbp|dollars?|euros?|pounds?|a month|per))", re.I),
        ("time", r"\b(?P<h>[01]?\d|2[0-3]):(?P<m>[0-5]\d)(?::[0-5]\d)?\b(?!\s*[ap]\.?m)", re.I),
        ("time", r"\b(?P<word>noon|midnight)\b", re.I),
        ("money", rf"(?P<cur>[$€£¥])\s?(?P<n>{_NUM}){_MAG}", re.I),
        ("money", rf"\b(?P<cur>{_CODES})\s?(?P<n>{_NUM}){_MAG}", 0),  # "EUR 12", "USD 19.99"
        # the symbol after: "12 €", "12,50 €" is not read (a decimal comma)
        ("money", rf"(?<![\w.,])(?P<n>{_NUM})\s?(?P<cur>[€£¥$])", 0),
        ("money", rf"\b(?P<n>{_NUM})\s?(?P<mag>million|billion|thousand)?\s?"
         rf"(?P<cur>{_CODES}|dollars?|euros?|cents?|bucks)\b", re.I),
        ("percent", rf"(?P<n>{_NUM})\s?"
         r"(?:%|percent\b|per cent\b|pct\b|percentage points?\b)", re.I),
        ("quantity", rf"(?P<n>-?(?:{_NUM}))\s?(?:(?P<deg>°|º|degrees?)\s?"
         rf"(?P<tu>celsius|fahrenheit|kelvin|[CFK])?\b|(?P<u>{_UNIT_RE})\b)", re.I),
        ("id", r"(?<![\w$€£-])(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z])"
         r"[A-Z0-9]+(?:-[A-Z0-9]+)*(?![\w-])", 0),
        ("id", r"#(?P<hash>[A-Za-z0-9-]*\d[A-Za-z0-9-]*)", 0),
        ("id", r"\b[a-z]+_[a-z0-9_]*\d[a-z0-9_]*\b", 0),
        ("number", rf"(?<![\w.$€£-])(?P<n>{_NUM})(?![\w%])(?:\s+(?P<noun>[A-Za-z][a-z]+))?", 0),
        ("number", rf"\b(?P<word>{'|'.join(_WORD_NUMBERS)})\s+(?P<noun>[a-z]+s)\b", re.I),
    ]
]  # fmt: skip
_MAGNITUDE = {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6, "bn": 1e9, "billion": 1e9}
_HEDGES = re.compile(
    r"(?:about|around|roughly|approximately|approx\.?|nearly|almost|~|some|over|under|"
    r"close to|more than|less than|up to|just over|just under|at least|at most|circa)\s*$",
    re.I,
)


@dataclass(frozen=True)
class Value:
    """One value found in text."""

    kind: str  # money, percent, date, time, quantity, id, number
    text: str
    start: int
    end: int
    number: float | None = None
    tolerance: float = 0.0  # how far the true value may be, given how it was written
    unit: str | None = None  # quantity: its dimension; money: its currency
    base: float | None = None  # quantity: the value in the base unit of its dimension
    date: tuple[int | None, int, int] | None = None
    alt_date: tuple[int | None, int, int] | None = None  # 05/12/2026 read the other way
    minutes: int | None = None  # time of day, minutes after midnight
    noun: str | None = None  # number: the word that follows ("3 meetings")
    hedged: bool = False


def _parse_number(text: str) -> float:
    return float(text.replace(",", ""))


def _tolerance(text: str, hedged: bool, scale: float = 1.0) -> float:
    digits = text.replace(",", "").lstrip("-")
    if "." in digits:
        unit = 10.0 ** -len(digits.split(".", 1)[1])
    elif hedged:
        zeros = len(digits) - len(digits.rstrip("0"))
        unit = 10.0 ** min(zeros, max(len(digits) - 1, 0))
    else:
        unit = 1.0
    return unit * scale / 2 + 1e-9


def to_base(number: float, unit: str) -> tuple[str, float] | None:
    """``(dimension, value in the base unit)``; temperatures go to °C."""
    u = unit.lower().rstrip(".")
    found = UNITS.get(u) or UNITS.get(u[:-1] if u.endswith("s") else u)
    if found is None and u.endswith("es"):
        found = UNITS.get(u[:-2])
    if found is None:
        return None
    dim, factor = found
    if dim == "temperature":
        if u.startswith("f"):
            return dim, (number - 32) * 5 / 9
        if u.startswith("k"):
            return dim, number - 273.15
        return dim, number
    return dim, number * factor


def _build(kind: str, m: re.Match[str], text: str) -> Value | None:
    g = m.groupdict()
    start, end = m.start(), m.end()
    hedged = bool(_HEDGES.search(text[max(0, start - 16) : start]))
    span = text[start:end]
    if kind == "date":
        return _date(g, span, start, end)
    if kind == "time":
        if g.get("word"):
            minutes = 720 if g["word"].lower() == "noon" else 0
            return Value("time", span, start, end, minutes=minutes)
        h, mi = int(g["h"]), int(g.get("m") or 0)
        ap = (g.get("ap") or "").lower()
        if ap and not 1 <= h <= 12:
            return None
        if ap == "p" and h != 12:
            h += 12
        elif ap == "a" and h == 12:
            h = 0
        # "2:30" with no am/pm may be either half of the day, as people say it.
        twelve = not ap and 1 <= h <= 12
        return Value("time", span, start, end, minutes=h * 60 + mi, hedged=twelve)
    if kind == "money":
        n = _parse_number(g["n"])
        scale = _MAGNITUDE.get((g.get("mag") or "").lower(), 1.0)
        cur = (g.get("cur") or "").lower()
        if cur.startswith("cent"):
            scale = 0.01
        return Value("money", span, start, end, n * scale, _tolerance(g["n"], hedged, scale),
                     cur, hedged=hedged)  # fmt: skip
    if kind == "percent":
        n = _parse_number(g["n"])
        return Value("percent", span, start, end, n, _tolerance(g["n"], hedged), hedged=hedged)
    if kind == "quantity":
        unit = g.get("u") or ("c" if not g.get("tu") else g["tu"])
        n = _parse_number(g["n"])
        based = to_base(n, unit)
        if based is None:
            return None
        tol_unit = to_base(_tolerance(g["n"], hedged), unit)
        tol = abs(tol_unit[1] - to_base(0.0, unit)[1]) if tol_unit else 0.0  # type: ignore[index]
        return Value("quantity", span, start, end, n, tol, based[0], based[1],
                     noun=unit.lower(), hedged=hedged)  # fmt: skip
    if kind == "id":
        return Value("id", span, start, end)
    noun = (g.get("noun") or "").lower()
    counted = noun if noun and noun not in _NOT_COUNTED else None
    if g.get("word"):
        n = float(_WORD_NUMBERS[g["word"].lower()])
        return Value("number", span, start, end, n, 0.5, noun=counted)
    return Value("number", span, start, end, _parse_number(g["n"]), _tolerance(g["n"], hedged),
                 noun=counted, hedged=hedged)  # fmt: skip


def _date(g: dict[str, Any], span: str, start: int, end: int) -> Value | None:
    year = int(g["y"]) if g.get("y") else None
    if g.get("a"):
        a, b = int(g["a"]), int(g["b"] or 0)
        first = (year, a, b) if 1 <= a <= 12 and 1 <= b <= 31 else None
        second = (year, b, a) if 1 <= b <= 12 and 1 <= a <= 31 else None
        if first is None and second is None:
            return None
        return Value("date", span, start, end, date=first or second, alt_date=second)
    month = int(g["mo"]) if g.get("mo") else _MONTHS[(g.get("mon") or "")[:3].lower()]
    day = int(g["d"] or 0)
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    minutes = int(g["th"]) * 60 + int(g["tm"] or 0) if g.get("th") else None
    return Value("date", span, start, end, date=(year, month, day), minutes=minutes)


def find_values(text: str) -> list[Value]:
    """Every value in ``text``, earliest first; a span read as one kind is not read again."""
    found: list[Value] = []
    for kind, pattern in _PATTERNS:
        for m in pattern.finditer(text):
            if any(m.start() < v.end and v.start < m.end() for v in found):
                continue
            value = _build(kind, m, text)
            if value is not None:
                found.append(value)
    found.sort(key=lambda v: v.start)
    return found


# Words after a number that do not make it a count of things.
_NOT_COUNTED = {"and", "or", "to", "of", "in", "on", "at", "for", "the", "a", "is", "was"}


def is_claimed(v: Value) -> bool:
    """Whether ``v`` is a value the answer claims (a count with its noun, an id that looks
    like one; not a year or a bare number)."""
    if v.kind == "number":
        if v.number is None or (1900 <= v.number <= 2100 and "." not in v.text):
            return False
        return v.noun is not None or "." in v.text  # a count of things, or a reading (4.7)
    if v.kind == "id":
        token = v.text.lstrip("#")
        return len(token) >= 4 and sum(c.isdigit() for c in token) >= 2
    return True
