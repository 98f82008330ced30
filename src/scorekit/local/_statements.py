"""Statements of a text: sentences, then clauses and list items, one fact each where possible.

The local judge writes one question per statement and reads the statement back from the
question, so :func:`question_for` and :func:`statement_of` are inverses.
"""

from __future__ import annotations

import re

__all__ = [
    "clauses",
    "focus",
    "question_for",
    "sentences",
    "split_detail",
    "statement_of",
    "statements",
]

_PREFIX = "Does the text state that "
_LOWER_STARTS = frozenset(
    w.capitalize()
    for w in [
        "a",
        "an",
        "the",
        "this",
        "that",
        "these",
        "those",
        "it",
        "its",
        "they",
        "their",
        "there",
        "he",
        "his",
        "she",
        "her",
        "we",
        "our",
        "you",
        "your",
        "in",
        "on",
        "at",
        "for",
        "with",
        "after",
        "before",
        "during",
        "since",
        "until",
        "from",
        "by",
        "of",
        "to",
        "as",
        "each",
        "every",
        "all",
        "some",
        "most",
        "many",
        "several",
        "both",
        "no",
        "one",
        "when",
        "while",
        "if",
        "once",
    ]
)
_SUFFIX = "?"

#: Words after which a full stop does not end a sentence.
_ABBREVIATIONS = frozenset(
    str.split(
        "mr mrs ms dr prof st sr jr vs e.g i.e no nos fig approx dept est u.s u.k"
        " jan feb mar apr jun jul aug sep sept oct nov dec"
    )
)
#: Abbreviations that often close a sentence: their full stop ends it when a capital follows
#: ("... until 5 p.m. Tickets cost ...").
_FINAL_ABBREVIATIONS = frozenset(str.split("a.m p.m etc inc ltd co corp"))
_BULLET = re.compile(r"^\s*(?:[-*•‣◦]|\(?\d{1,3}[.)]|\(?[a-zA-Z][.)])\s+")
_SENTENCE_END = re.compile(r"[.!?]+[\"'”’)\]]*\s+")
_TRAILING = re.compile(r"[\s.!?;:,]+$")
#: Clause boundaries: semicolons, and coordinated clauses after a comma.
_CLAUSE_SPLIT = re.compile(r"\s*;\s+|,\s+(?:and|but|while|whereas|yet)\s+")
#: ``and``/``but`` without a comma also split, when both sides are long enough to be facts.
_AND_SPLIT = re.compile(r"\s+(?:and|but)\s+")
_MIN_CLAUSE_WORDS = 3
#: Words that pair what comes before and after an "and" ("between midnight and 5 a.m.").
_PAIRING = frozenset(["between", "both"])
_MIN_AND_WORDS = 5
#: Statements longer than this many words are cut into pieces (the model reads 256 tokens).
_MAX_WORDS = 60


def _words(text: str) -> int:
    return len(text.split())


def _ends_sentence(before: str, after: str, lowercase_text: bool) -> bool:
    last = before.rsplit(None, 1)[-1].lower().rstrip(".!?\"'”’)]") if before.strip() else ""
    word = before.rsplit(None, 1)[-1].rstrip(".!?\"'”’)]") if before.strip() else ""
    if last in _ABBREVIATIONS or re.fullmatch(r"[A-Z]", word):
        return False
    if not after:
        return True
    first = after[0]
    if last in _FINAL_ABBREVIATIONS:
        return first.isupper()
    if first.isupper() or first.isdigit() or first in "\"'“‘([":
        return True
    return lowercase_text


def sentences(text: str) -> list[str]:
    """Split ``text`` into sentences; lines and list items are sentences of their own.

    Example:
        >>> sentences("It rains. Take an umbrella!\\n- dry socks")
        ['It rains.', 'Take an umbrella!', 'dry socks']
    """
    out: list[str] = []
    lowercase_text = not any(c.isupper() for c in text)
    for block in re.split(r"\n\s*\n|\n(?=\s*(?:[-*•‣◦]|\(?\d{1,3}[.)])\s)", text):
        line = _BULLET.sub("", " ".join(block.split()))
        if not line:
            continue
        start = 0
        for match in _SENTENCE_END.finditer(line):
            end = match.end()
            if _ends_sentence(line[: match.start() + 1], line[end:], lowercase_text):
                piece = line[start:end].strip()
                if piece:
                    out.append(piece)
                start = end
        rest = line[start:].strip()
        if rest:
            out.append(rest)
    return [s for s in out if any(ch.isalnum() for ch in s)]


def _cut_long(text: str) -> list[str]:
    words = text.split()
    if len(words) <= _MAX_WORDS:
        return [text]
    return [" ".join(words[i : i + _MAX_WORDS]) for i in range(0, len(words), _MAX_WORDS)]


def clauses(sentence: str) -> list[str]:
    """Split one sentence into clauses that each read as a fact (short pieces stay joined).

    Example:
        >>> clauses("The app adds sync; exports are faster.")
        ['The app adds sync', 'exports are faster']
    """
    core = _TRAILING.sub("", sentence.strip())
    parts = [p for p in _CLAUSE_SPLIT.split(core) if p]
    merged: list[str] = []
    for part in parts:
        if merged and _words(part) < _MIN_CLAUSE_WORDS:
            merged[-1] = f"{merged[-1]}, {part}"
        elif not merged or _words(merged[-1]) >= _MIN_CLAUSE_WORDS:
            merged.append(part)
        else:
            merged[-1] = f"{merged[-1]}, {part}"
    out: list[str] = []
    for part in merged:
        pieces = _AND_SPLIT.split(part)
        # "between 9 and 5", "both tea and coffee": one range or pair, not two facts.
        paired = any(_PAIRING & {w.lower() for w in p.split()[-3:]} for p in pieces[:-1])
        if len(pieces) > 1 and not paired and all(_words(p) >= _MIN_AND_WORDS for p in pieces):
            out.extend(pieces)
        else:
            out.append(part)
    result: list[str] = []
    for part in out:
        result.extend(_cut_long(part.strip(" ,")))
    return [p for p in result if any(ch.isalnum() for ch in p)]


#: Where a trailing detail starts: a relative clause after a comma, or a phrase of time,
#: cause or cost ("after a ten-year legal battle", "costing 4 million euros").
_DETAIL = re.compile(
    r",\s+(?:which|who|whom|whose|where)\s+"
    r"|,?\s+(?:after|before|following|despite|because|since|amid|during|until|costing"
    r"|including|thanks to|due to|as part of|in a bid to|making it|bringing)\s+",
    re.IGNORECASE,
)
#: Words that measure the time before "before"/"after" ("an hour before", "shortly after").
_MEASURED_BEFORE = frozenset(
    [
        "hour",
        "hours",
        "minute",
        "minutes",
        "day",
        "days",
        "week",
        "weeks",
        "month",
        "months",
        "year",
        "years",
        "second",
        "seconds",
        "shortly",
        "just",
        "long",
        "soon",
        "right",
        "immediately",
        "moments",
        "decades",
        # A word bound to the phrase after it: "possible only until", "not after", "even
        # during" (the phrase is not a detail of its own).
        "only",
        "not",
        "even",
    ]
)
#: A phrase that only times the verb ("expires after 24 hours", "closes until 2 p.m."): it
#: belongs to the verb's fact, and the main clause alone would state another one.
_TIME_SPAN = re.compile(
    r"^(?:after|before|until|during|following|since)\s+(?:about\s+|roughly\s+|around\s+)?"
    r"(?:\d[\d.,:]*|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
    r"|twenty|thirty|forty|fifty|sixty|a few|several)\s*"
    r"(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?|a\.?m|p\.?m)?$",
    re.IGNORECASE,
)
#: A verb of the main clause after the phrase: the phrase sits inside the subject.
_FINITE = re.compile(r"\b(?:is|are|was|were|has been|have been|had been|will be)\b", re.I)
#: Words a main clause needs before a detail is split from it.
_MIN_MAIN_WORDS = 3
_MIN_DETAIL_WORDS = 2


def split_detail(statement: str) -> tuple[str, str] | None:
    """``(main clause, trailing detail)`` of a statement, or None when it has no detail.

    A relative clause between commas is taken out of the middle ("Maria, who joined in 2019,
    will present ..."): the main clause is the sentence without it.

    Example:
        >>> split_detail("The board approved the budget, which grew by 12 percent")
        ('The board approved the budget', 'which grew by 12 percent')
        >>> split_detail("The museum reopened in May after a renovation")
        ('The museum reopened in May', 'after a renovation')
    """
    for match in _DETAIL.finditer(statement):
        main = statement[: match.start()].strip(" ,")
        last = main.rsplit(None, 1)[-1].lower() if main else ""
        if last in _MEASURED_BEFORE or last[:1].isdigit():
            continue  # "closes an hour before the museum": a measure of time, not a detail
        if _words(main) < _MIN_MAIN_WORDS and not match.group(0).startswith(","):
            continue
        detail = statement[match.start() :].strip(" ,")
        rest = ""
        if match.group(0).startswith(",") and detail.lower().startswith(
            ("which", "who", "whom", "whose", "where")
        ):
            inner, sep, after = detail.partition(", ")
            if sep and _words(after) >= 2:
                detail, rest = inner, after
        if not main or _words(detail) < _MIN_DETAIL_WORDS or _TIME_SPAN.match(detail):
            continue
        if not match.group(0).startswith(",") and _FINITE.search(detail):
            continue  # "A bug that duplicated tags after an import is fixed": no detail
        if _words(main) + _words(rest) < _MIN_MAIN_WORDS:
            continue
        return (f"{main} {rest}".strip() if rest else main), detail
    return None


def focus(statement: str) -> str:
    """The part of a statement its question asks about: its trailing detail if it has one.

    A sentence with a detail gives two statements: the main clause, and the whole sentence
    whose question is about the detail (so a wrong detail costs one statement, not two).

    Example:
        >>> focus("The museum reopened in May after a two-year renovation")
        'after a two-year renovation'
        >>> focus("The museum reopened in May")
        'The museum reopened in May'
    """
    split = split_detail(statement)
    return statement if split is None else split[1]


def statements(text: str) -> list[str]:
    """The statements of ``text``: its clauses, in order, duplicates removed; a clause with a
    trailing detail gives its main clause and, as a statement of its own, the whole clause.

    Example:
        >>> statements("Bikes ride free. Tickets are sold at the harbour, and dogs pay 2 euros.")
        ['Bikes ride free', 'Tickets are sold at the harbour', 'dogs pay 2 euros']
        >>> statements("The museum reopened in May after a renovation.")
        ['The museum reopened in May', 'The museum reopened in May after a renovation']
    """
    seen: set[str] = set()
    out: list[str] = []
    for sentence in sentences(text):
        for clause in clauses(sentence):
            split = split_detail(clause)
            for piece in [split[0], clause] if split is not None else [clause]:
                key = piece.lower()
                if key not in seen:
                    seen.add(key)
                    out.append(piece)
    return out


def question_for(statement: str) -> str:
    """The readable yes/no question for a statement.

    Example:
        >>> question_for("Bikes ride free")
        'Does the text state that Bikes ride free?'
    """
    first, sep, rest = statement.partition(" ")
    if first in _LOWER_STARTS:
        # "that the release fixes ...", not "that The release fixes ..."; names keep their
        # capital (only function words are lowered, and the model is uncased anyway).
        statement = first.lower() + sep + rest
    return f"{_PREFIX}{statement}{_SUFFIX}"


def statement_of(question: str) -> str:
    """The statement inside a question written by :func:`question_for` (else the question).

    Example:
        >>> statement_of("Does the text state that Bikes ride free?")
        'Bikes ride free'
    """
    q = question.strip()
    if q.startswith(_PREFIX) and q.endswith(_SUFFIX):
        return q[len(_PREFIX) : -len(_SUFFIX)].strip()
    return q
