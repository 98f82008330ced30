"""Word-level features of a statement or passage: content words, numbers, names, negation.

These feed the lexical evidence and the conflict checks of the local judge; the sentence
encoder alone scores "fell in 1987" and "fell in 1989" as the same claim.

Over 400 lines: one pass (``features``) reads every kind of word a unit check needs, and its
helpers (numbers with their units, dates, clock times, names) share its tokens; split apart they
would each tokenize the text again.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from itertools import pairwise
from pathlib import Path

from scorekit.local._words import HEDGES, PRIVATIVE_NOUNS, PRIVATIVES, QUANTIFIERS

#: The model's tokenizer (the encoder loads it; its vocabulary tells names from words).
TOKENIZER_FILE = Path(__file__).parent / "data" / "tokenizer.json"
#: Irregular word forms (written by ``benchmarks/build_synonyms.py`` from WordNet).
FORMS_FILE = Path(__file__).parent / "data" / "forms.txt"


def _wordset(words: str) -> frozenset[str]:
    return frozenset(words.split())


_POSSESSIVE = re.compile(r"(?<=[A-Za-z\u00C0-\u024F])'s\b|(?<=s)'(?=\s|$)")
#: "$4 million" reads "4 million dollar"; "12 per cent" reads "12%".
_CURRENCY = re.compile(
    r"([$€£¥])\s?(\d[\d.,]*(?:\s?(?:million|billion|thousand|bn|m|k)\b)?)", re.IGNORECASE
)
_DOTTED = re.compile(r"\b(?:[A-Z]\.){2,}")
_CURRENCY_WORDS = {"$": "dollar", "€": "euro", "£": "pound", "¥": "yen"}
_PERCENT = re.compile(r"\s?(?:per ?cent|pct)\b", re.IGNORECASE)
#: A time of day with am/pm ("8 pm", "7.30pm", "9:30 a.m."), read on the 24-hour clock.
_CLOCK = re.compile(r"\b(\d{1,2})(?:[:.](\d{2}))?\s?([ap])\.?m\b\.?", re.IGNORECASE)
_HOURS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
          "twelve"]  # fmt: skip
#: The same in words: "eleven in the morning", "3 o'clock in the afternoon".
_CLOCK_WORDS = re.compile(
    rf"\b(\d{{1,2}}|{'|'.join(_HOURS)})(?: o'clock)? in the (morning|afternoon|evening)\b",
    re.IGNORECASE,
)
#: Durations in words, as numbers ("an hour and a half" is 1.5 hours).
_SPELLED_DURATIONS = [
    (re.compile(r"\b(?:an?|one) (hour|day|week|minute|year) and a half\b", re.I), r"1.5 \1s"),
    (re.compile(r"\bhalf an? (hour|day|minute)\b", re.I), r"0.5 \1"),
    (re.compile(r"\ba quarter of an hour\b", re.I), "15 minutes"),
    (re.compile(r"\b(?:an? |one )?half[- ]hour\b", re.I), "30 minutes"),
    # Degrees of temperature: "100 °C" is "100 degrees Celsius".
    (re.compile(r"(\d)\s*°\s*C\b"), r"\1 degrees Celsius"),
    (re.compile(r"(\d)\s*°\s*F\b"), r"\1 degrees Fahrenheit"),
]
#: "no longer" and "not anymore" deny like "not".
_NO_LONGER = re.compile(r"\b(no|not) (?:longer|anymore|any more)\b", re.IGNORECASE)
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
    "seventy": 70, "eighty": 80, "ninety": 90, "dozen": 12, "twice": 2, "pair": 2,
}  # fmt: skip
#: Units of measure written out or abbreviated -> one form ("10,000 km" is "10,000
#: kilometres").
_UNIT_FORMS = {
    "km": ["kilometre", "kilometres", "kilometer", "kilometers", "kms"],
    "kg": ["kilogram", "kilograms", "kilogramme", "kilogrammes", "kilo", "kilos", "kgs"],
    "g": ["gram", "grams", "gramme", "grammes"],
    "m": ["metre", "metres", "meter", "meters"],
    "cm": ["centimetre", "centimetres", "centimeter", "centimeters"],
    "mm": ["millimetre", "millimetres", "millimeter", "millimeters"],
    "l": ["litre", "litres", "liter", "liters"],
    "ml": ["millilitre", "millilitres", "milliliter", "milliliters"],
    "oz": ["ounce", "ounces"],
    "mi": ["mile", "miles"],
    "ft": ["foot", "feet"],
    "in": ["inch", "inches"],
}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 10**6, "billion": 10**9, "k": 1000,
           "m": 10**6, "bn": 10**9}  # fmt: skip

_QUANTIFIER_WORDS = frozenset(QUANTIFIERS)

#: Words after a negation that it may deny.
_SCOPE = 4

#: Names regardless of case (news text is often lower-cased).
CALENDAR = _wordset(
    "monday tuesday wednesday thursday friday saturday sunday january february march april"
    " june july august september october november december"
)


#: Capitalised abbreviations of common nouns: a kind of thing, not one named thing. Another one
#: in its place contradicts it ("CEO" / "CFO"), but a text may say it in other words ("HTTP
#: 429" / "status 429", "the CEO" / "the chief executive"), so its absence is no missing name.
GENERIC_ACRONYMS = _wordset(
    "http https url api pdf usb cpu gpu ram rom ssd hdd sms gps tv pc id faq html css json xml"
    " csv sql dns ip tcp udp vpn lan wan led lcd ai ui ux os sdk cli gui qr pin atm sim dvd cd"
    " hd ceo cfo cto coo hr pr vat gdp ipo kpi roi diy dna rna mri icu iv bmi am pm bc ad bce"
    " ce"
)


@lru_cache(maxsize=1)
def vocabulary() -> frozenset[str]:
    """Whole words the model's tokenizer knows (a capitalised word outside it is a name)."""
    data = json.loads(TOKENIZER_FILE.read_text(encoding="utf-8"))
    return frozenset(w for w in data["model"]["vocab"] if w.isalpha())


def word_table(path: Path) -> list[list[str]]:
    """The rows of one of the judge's word tables: words separated by spaces, one row a line;
    lines starting with ``#`` are comments."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line.split() for line in lines if line and not line.startswith("#")]


@lru_cache(maxsize=1)
def _irregular_forms() -> dict[str, str]:
    """Irregular noun and verb forms -> their base ("children" -> "child", "took" -> "take")."""
    return {form: base for form, base in word_table(FORMS_FILE)}


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A light suffix-stripping stem, enough to match ``charges``/``charged``/``charge``, and
    irregular forms to their base (``bought``/``buys``, ``children``/``child``)."""
    w = word.lower().replace("’", "'")
    if w.endswith("'s"):
        w = w[:-2]
    w = _irregular_forms().get(w, w)
    for suffix, keep in (("ies", "y"), ("ied", "y"), ("ing", ""), ("ed", ""), ("es", ""),
                         ("s", ""), ("ly", "")):  # fmt: skip
        if w.endswith(suffix) and len(w) - len(suffix) >= 3 and not w.endswith("ss"):
            w = w[: -len(suffix)] + keep
            break
    # After the suffix, so "page"/"pages" and "take"/"taking" meet ("pag", "tak").
    if w.endswith("e") and len(w) > 3:
        w = w[:-1]
    return w


def number_value(token: str) -> str | None:
    """The value of one written number ("8", "4.1", "twice", "three"), else None.

    Example:
        >>> number_value("twice"), number_value("21,000"), number_value("budget")
        ('2', '21000', None)
    """
    if token[:1].isdigit():
        return _number(token)
    if token in _UNITS:
        return str(_UNITS[token])
    value = _unit_stems().get(token)  # a stemmed number word ("twic", "thre")
    return None if value is None else str(value)


@lru_cache(maxsize=1)
def _unit_stems() -> dict[str, int]:
    return {stem(word): value for word, value in _UNITS.items()}


def _number(raw: str) -> str | None:
    digits = re.match(r"\d+(?:[.,:]\d+)*", raw)
    if digits is None:
        return None
    text = digits.group(0)
    if ":" in text:
        head, *rest = [p for p in text.split(":") if p.isdigit()]
        return ":".join([str(int(head)), *(f"{int(p):02d}" for p in rest)])
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
        negation_scopes: for each negation word, the stem of the content word it denies.
        surface: the content words as written (lower-cased), one per stem.
        maybe_names: lower-cased capitalised words at a sentence start that are also English
            words ("Maria", "Paris", but also "Prices"): names unless the text says otherwise.
        hedges: stems of the content words a hedge ("may", "likely", "plans") bears on.
        quantifiers: the quantifier classes used (``all``, ``most``, ``half``, ``some``, ``none``).
        privatives: stems of verbs of ending or lacking ("dropped", "failed").
        acronyms: the names written in capitals ("eu", "ceo"), lower-cased.
    """

    words: frozenset[str]
    content: frozenset[str]
    sequence: tuple[str, ...]
    numbers: frozenset[str]
    names: frozenset[str]
    quantities: frozenset[tuple[str, str]] = frozenset()
    negation_scopes: tuple[frozenset[str], ...] = ()
    surface: tuple[tuple[str, str], ...] = ()
    maybe_names: frozenset[str] = frozenset()
    hedges: frozenset[str] = frozenset()
    quantifiers: frozenset[str] = frozenset()
    privatives: frozenset[str] = frozenset()
    acronyms: frozenset[str] = frozenset()

    @property
    def negated(self) -> int:
        """Number of negation words; odd means negated."""
        return len(self.negation_scopes)

    @property
    def bigrams(self) -> frozenset[tuple[str, str]]:
        """Adjacent stem pairs."""
        return frozenset(pairwise(self.sequence))


def _unit(tokens: list[str], j: int, tail: str) -> str:
    """What a number counts: its attached tail (``%``, ``kHz``) or the next content word
    (a unit of measure in one form: "km" for "kilometres")."""
    if tail:
        return unit_form(tail)
    if j < len(tokens):
        nxt = tokens[j].lower()
        if nxt.isalpha() and nxt not in STOPWORDS and nxt not in _SCALES:
            return unit_form(nxt)
        if "-" in nxt and nxt.split("-")[0] not in _UNITS:
            return unit_form(nxt.split("-")[0])
    return ""


@lru_cache(maxsize=1)
def _unit_forms() -> dict[str, str]:
    return {stem(word): short for short, words in _UNIT_FORMS.items() for word in words}


def unit_form(word: str) -> str:
    """A unit of measure in one form ("kilometres", "km" -> "km"); another word's stem."""
    st = stem(word)
    return _unit_forms().get(st, st)


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


#: Stems of the duration unit words.
DURATION_STEMS = frozenset(_DURATION_SECONDS)


def _sentence_starts(text: str) -> set[int]:
    return {0} | {m.end() for m in re.finditer(r"[.!?:;]\s+[\"'“‘(]?|\n\s*", text)}


def features(text: str) -> Features:
    """Extract :class:`Features` from a statement or passage.

    Example:
        >>> f = features("The wall did not fall in November 1987.")
        >>> sorted(f.numbers), sorted(f.names), f.negated
        (['1987'], ['november'], 1)
    """
    vocabulary()
    text = normalise(text)
    matches = list(_TOKEN.finditer(text))
    tokens = [m.group(0) for m in matches]
    starts = _sentence_starts(text)
    names: set[str] = set()
    acronyms: set[str] = set()
    maybe: set[str] = set()
    lowered = {m.group(0) for m in matches if m.group(0)[0].islower()}
    for i, m in enumerate(matches):
        tok = m.group(0)
        low = tok.lower()
        letters = [c for c in tok if c.isalpha()]
        if low in CALENDAR or (low == "may" and _is_month(tokens, i, m.start() in starts)):
            names.add(low)  # "in May" is the month; "it may rain" is a hedge
        elif len(letters) >= 2 and all(c.isupper() for c in letters):
            names.add(low)  # an acronym: EU, NASA, PDF (see GENERIC_ACRONYMS)
            acronyms.add(low)
        elif len(letters) < 2:
            continue  # an initial or a list letter names nothing on its own
        elif "-" in tok and tok[0].isupper() and tok.split("-", 1)[1].islower():
            # "English-speaking", "Paris-based": the name is the capitalised part.
            head = low.split("-", 1)[0]
            if m.start() not in starts and len(head) >= 2:
                names.add(head)
        elif low in _NEVER_NAMES:
            continue  # "Years later, ...", "Much later, ...": a measure, not a name
        elif tok[0].isupper() and low not in STOPWORDS and low not in NEGATIONS:
            # A capital at a sentence start proves little, unless the word is no English word.
            if m.start() not in starts:
                names.add(low)
            elif (
                low not in lowered
                and low not in _QUANTIFIER_WORDS
                and _next_word(tokens, i) not in _NOT_AFTER_NAME
            ):
                # "Maria will ...", "Paris is ...", not an instruction ("Leave the ...").
                maybe.add(low)
    lows = [t.lower() for t in tokens]
    parts = [p for t in lows for p in t.split("-") if p]
    sequence = tuple(stem(p) for p in parts)
    surface: dict[str, str] = {}
    for p in parts:
        # Number words are checked as numbers ("two weeks" states what "2 weeks" does).
        if p not in STOPWORDS and p not in NEGATIONS and p.isalnum() and p not in _UNITS:
            surface.setdefault(stem(p), p)
    content = frozenset(surface)
    as_written: set[str] = set()
    quantities = _quantities(tokens, as_written)
    # One scope per negation word (``negated`` counts them).
    # The head a negation or a hedge bears on is the first content word after it ("was not
    # approved" -> approv); "risk-free" denies its first part.
    scopes = tuple(
        _head(lows, i) for i, t in enumerate(lows) if t in NEGATIONS or t.endswith("n't")
    ) + tuple(frozenset({stem(t[:-5])}) for t in lows if t.endswith("-free") and len(t) > 5)
    hedge_heads = frozenset().union(
        *(
            _head(lows, i)
            for i, t in enumerate(lows)
            if t in HEDGES and not (t == "may" and t in names)
        )
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
        maybe_names=frozenset(maybe - names),
        hedges=hedge_heads,
        quantifiers=frozenset(QUANTIFIERS[w] for w in parts if w in QUANTIFIERS),
        privatives=frozenset(
            stem(PRIVATIVE_NOUNS.get(w, w))
            for w in parts
            if w in PRIVATIVES or w in PRIVATIVE_NOUNS
        ),
        acronyms=frozenset(acronyms),
    )


#: Capitalised first words that measure time or amount: never a name.
_NEVER_NAMES = _wordset(
    "years months weeks days hours minutes decades centuries much later earlier"
)


#: Words that follow a verb rather than a name: after them a capitalised first word is an
#: instruction ("Leave the chickpeas ..."), not a name.
_NOT_AFTER_NAME = _wordset(
    "a an the this that these those them it its your my our their his her to of in on for"
    " with at by from up out off into over me us him you"
)


#: Words before "may" that make it the month ("in may", "since May", "early May").
_BEFORE_MONTH = _wordset("in of since until till from by early late mid last next this during")


def _is_month(tokens: list[str], i: int, at_start: bool) -> bool:
    before = tokens[i - 1].lower() if i > 0 else ""
    after = _next_word(tokens, i)
    if tokens[i] == "May" and not at_start:
        return True
    return before in _BEFORE_MONTH or (bool(after) and after[0].isdigit())


def _next_word(tokens: list[str], i: int) -> str:
    return tokens[i + 1].lower() if i + 1 < len(tokens) else ""


def _head(lows: list[str], i: int) -> frozenset[str]:
    """The stem of the first content word after position ``i`` (empty if none is near)."""
    for t in lows[i + 1 : i + 1 + _SCOPE]:
        for p in t.split("-"):
            if p and p not in STOPWORDS and p not in NEGATIONS and p not in HEDGES:
                return frozenset({stem(p)})
    return frozenset()


def _clock(m: re.Match[str]) -> str:
    """ "8 pm" -> "20:00", "12 am" -> "0:00": one way of writing a time of day."""
    hour, minute = int(m.group(1)), m.group(2) or "00"
    if hour > 12:
        return m.group(0)
    hour = hour % 12 + (12 if m.group(3).lower() == "p" else 0)
    # "p.m." at the end of a sentence ends it too: keep that full stop.
    rest = m.string[m.end() :]
    ends = m.group(0).endswith(".") and (not rest.strip() or re.match(r"\s+[A-Z]", rest))
    return f"{hour}:{minute}{'.' if ends else ''}"


def _clock_words(m: re.Match[str]) -> str:
    """ "eleven in the morning" -> "11:00", "three in the afternoon" -> "15:00"."""
    word = m.group(1).lower()
    hour = int(word) if word.isdigit() else _HOURS.index(word) + 1
    if hour > 12:
        return m.group(0)
    hour = hour % 12 + (0 if m.group(2).lower() == "morning" else 12)
    return f"{hour}:00"


def normalise(text: str) -> str:
    """The text as the checks read it: one apostrophe, no possessive ``'s``, currencies,
    percentages and times of day ("8 pm" as "20:00") written one way, "no longer" as "not".

    Example:
        >>> normalise("France's budget grew by $4 million, or 12 per cent; it is no longer low.")
        'France budget grew by 4 million dollar, or 12%; it is not low.'
    """
    text = text.replace("’", "'")
    # A possessive names the same thing: "France's capital" states a fact about France.
    text = _POSSESSIVE.sub("", text)
    text = _DOTTED.sub(lambda m: m.group(0).replace(".", ""), text)  # U.K. -> UK
    text = _CURRENCY.sub(lambda m: f"{m.group(2)} {_CURRENCY_WORDS[m.group(1)]}", text)
    text = _PERCENT.sub("%", text)
    text = _CLOCK.sub(_clock, text)
    text = _CLOCK_WORDS.sub(_clock_words, text)
    for pattern, replacement in _SPELLED_DURATIONS:
        text = pattern.sub(replacement, text)
    return _NO_LONGER.sub(lambda m: "not" if m.group(1).islower() else "Not", text)
