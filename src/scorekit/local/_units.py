"""Content units of a statement, checked one by one against a passage of the other text.

A statement asserts names, numbers with their units, dates, quantifiers, a polarity, a
modality, direction words and a relation between its subject and object. Each unit is found
(as written, or as an accepted paraphrase: synonym, number word, unit conversion, possessive),
contradicted (the passage states it differently) or unsupported (found nowhere). The checks
return the signals the learned model combines (``_signals``) and, for the evidence table, one
sentence naming the unit that failed.

Over 400 lines: one check per kind of unit (names, numbers, polarity, modality, directions,
roles), each small, all reading the same pair of ``Features``; ``check_units`` runs them in one
place so the order of vetoes, and so the reason shown, stays in one file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from scorekit.local._lexicon import CALENDAR as _CALENDAR
from scorekit.local._lexicon import (
    DURATION_STEMS,
    GENERIC_ACRONYMS,
    STOPWORDS,
    Features,
    number_value,
    stem,
    unit_form,
    word_table,
)
from scorekit.local._model import FloatArray
from scorekit.local._words import OPPOSITE_PAIRS, PRIVATIVE_NOUNS

#: Word closeness (cosine of word vectors) from which a synonym starts to count, and counts fully.
WORD_LOW = 0.45
WORD_HIGH = 0.80
#: Two words at a sentence start, both maybe names ("Officials" / "Authorities"), are the same
#: thing from this closeness on; below it they name different things ("Maria" / "John").
SAME_NAME = 0.6
#: One word changed in a name's place is a synonym from this closeness on (WordNet's synonyms
#: always are): places and colours sit closer than ``SAME_NAME`` ("berlin" / "hamburg").
SAME_WORD = 0.8
#: Share of the statement's content words a passage must hold before polarity, modality or a
#: quantifier can contradict it (otherwise the passage is about something else).
CONFLICT_OVERLAP = 0.5
#: WordNet's synonym groups as stems (written by ``benchmarks/build_synonyms.py``).
SYNONYMS_FILE = Path(__file__).parent / "data" / "synonyms.txt"
#: WordNet's antonym pairs as stems ("popular unpopular"; same script).
ANTONYMS_FILE = Path(__file__).parent / "data" / "antonyms.txt"


@lru_cache(maxsize=1)
def _opposites() -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    pairs = [(stem(a), stem(b)) for a, b in OPPOSITE_PAIRS]
    # The listed pairs hold directions and amounts WordNet does not pair ("rise" / "drop").
    pairs += [(a, b) for a, b in word_table(ANTONYMS_FILE)]
    for sa, sb in pairs:
        if sa != sb:
            out.setdefault(sa, set()).add(sb)
            out.setdefault(sb, set()).add(sa)
    return {k: frozenset(v) for k, v in out.items()}


@lru_cache(maxsize=1)
def _synonym_groups() -> tuple[list[list[str]], dict[str, list[int]]]:
    groups = word_table(SYNONYMS_FILE)
    index: dict[str, list[int]] = {}
    for i, group in enumerate(groups):
        for word in group:
            index.setdefault(word, []).append(i)
    return groups, index


@lru_cache(maxsize=16384)
def synonyms(word_stem: str) -> frozenset[str]:
    """Stems of the words WordNet gives as synonyms of ``word_stem`` in one of its common
    senses ("respond" -> "answer", "react", ...; see ``benchmarks/build_synonyms.py``)."""
    groups, index = _synonym_groups()
    return frozenset(w for i in index.get(word_stem, ()) for w in groups[i] if w != word_stem)


def opposites(word_stem: str) -> frozenset[str]:
    """Stems of the words that state the opposite of ``word_stem`` ("rose" -> "fell", ...)."""
    return _opposites().get(word_stem, frozenset())


@dataclass
class UnitCheck:
    """The units of one statement checked against one passage (and the whole text).

    Attributes:
        credit: weighted share of the statement's content words the passage holds (a synonym
            counts in part).
        text_credit: the same share against the whole text (exact words; synonyms in the
            passage).
        weakest: the lowest credit of one content word (1.0 when there is none).
        conflicts: kind -> the sentence saying what the passage states differently.
        missing: kind -> the sentence naming a unit the text states nowhere.
    """

    credit: float = 1.0
    text_credit: float = 1.0
    weakest: float = 1.0
    conflicts: dict[str, str] = field(default_factory=dict)
    missing: dict[str, str] = field(default_factory=dict)
    missing_names: int = 0
    missing_numbers: int = 0
    #: The content word with the lowest credit (for the reason of a low answer).
    weakest_word: str = ""


def _as_written(word: str, feats: Features) -> str:
    for st, surface in feats.surface:
        if surface == word or st == word:
            return surface
    return word


def _name_form(word: str, feats: Features) -> str:
    if word in feats.acronyms:
        return word.upper()
    return word[:1].upper() + word[1:] if word.isalpha() and word.islower() else word


def _quantity_text(value: str, unit: str, feats: Features) -> str:
    """A quantity as the text wrote it: ``12%``, ``40 litres``, ``2 hours``."""
    if unit == "duration":
        return _seconds_text(value)
    if unit in ("", "time"):
        return value
    if unit == "%":
        return f"{value}{unit}"
    written = next((w for _, w in feats.surface if w.isalpha() and unit_form(w) == unit), unit)
    return f"{value} {written}"


def _seconds_text(value: str) -> str:
    seconds = float(value)
    for size, name in ((604800, "week"), (86400, "day"), (3600, "hour"), (60, "minute")):
        if seconds >= size and seconds / size == int(seconds / size):
            n = int(seconds / size)
            return f"{n} {name}{'s' if n != 1 else ''}"
    return f"{value} seconds"


def _closeness(a: str, b: str, vectors: Mapping[str, FloatArray] | None) -> float:
    if vectors is None or a not in vectors or b not in vectors:
        return 0.0
    return float(vectors[a] @ vectors[b])


def _ramp(value: float) -> float:
    return min(1.0, max(0.0, (value - WORD_LOW) / (WORD_HIGH - WORD_LOW)))


def check_units(
    stmt: Features,
    passage: Features,
    parts: tuple[Features, ...],
    text_stems: frozenset[str],
    text_numbers: frozenset[str],
    text_words: frozenset[str],
    vectors: Mapping[str, FloatArray] | None,
    weights: Mapping[str, float] | None,
    whole: Features | None = None,
) -> UnitCheck:
    """Check every unit of ``stmt`` (the statement's focus) against ``passage``.

    Args:
        stmt: features of the statement's focus.
        passage: features of the passage.
        parts: features of each sentence of the passage (polarity is judged per sentence).
        text_stems / text_numbers / text_words: content stems, numbers and words of the whole
            answering text (a unit found nowhere in it is unsupported, not contradicted).
        vectors: word vectors for synonyms (None: exact words only).
        weights: weight of each content stem (inverse sentence frequency), or None.
        whole: features of the whole statement when ``stmt`` is only its focus (polarity,
            modality and the relation are checked on the whole statement).

    Example:
        >>> from scorekit.local._lexicon import features
        >>> p = features("Maria will present the budget.")
        >>> c = check_units(features("John will present the budget."), p, (p,),
        ...                 p.content, p.numbers, p.words, None, None)
        >>> c.conflicts["name"]
        "'John' is not in the text; it names Maria"
    """
    out = UnitCheck()
    pcontent = passage.content
    # Names first: a name the passage lacks, where the passage names someone else, is a
    # contradiction; a name the text never mentions is unsupported.
    stmt_names = stmt.names | stmt.maybe_names
    pass_names = passage.names | passage.maybe_names
    # "EU" and "European Union" name the same thing, on either side.
    theirs_spelled = _acronyms(passage)
    mine_spelled = _acronyms(stmt)
    aliases = frozenset(
        stem(w) for a, words in mine_spelled.items() if a in passage.words for w in words
    ) | frozenset(stem(n) for n in stmt_names if n in theirs_spelled)
    spelled_out = frozenset(
        w for a, words in theirs_spelled.items() if a in stmt.words for w in words
    )
    lacking = [
        n
        for n in sorted(stmt_names)
        if n not in passage.words and stem(n) not in pcontent and stem(n) not in aliases
    ]
    extra = [
        n
        for n in sorted(pass_names)
        if n not in stmt.words
        and stem(n) not in stmt.content
        and n not in mine_spelled
        and n not in spelled_out
    ]
    # "Greta Gerwig" is the "Gerwig" of the passage: a leading part of a name (a given name, a
    # title) may be left out when the rest of the name is there.
    shortened = frozenset(n for n in lacking if _name_rest_found(n, stmt, stmt_names, passage))
    aliases = aliases | {stem(n) for n in shortened}
    for name in lacking:
        if name in shortened:
            continue
        certain = name in stmt.names
        if name in text_words or stem(name) in text_stems:
            continue  # named elsewhere in the text: this passage is about something else
        rival = next(
            (
                e
                for e in extra
                if (e in _CALENDAR) == (name in _CALENDAR)
                and _same_slot(name, stmt, e, passage)
                and (certain or e in passage.names or _closeness(name, e, vectors) < SAME_NAME)
            ),
            None,
        )
        if rival is not None:
            out.conflicts.setdefault(
                "name",
                f"'{_name_form(name, stmt)}' is not in the text;"
                f" it names {_name_form(rival, passage)}",
            )
        elif certain and name not in GENERIC_ACRONYMS:
            # A common noun's abbreviation ("CEO", "API") may be said in other words.
            out.missing_names += 1
            out.missing.setdefault("name", f"'{_name_form(name, stmt)}' is not in the text")
    _check_numbers(stmt, passage, text_numbers, out)
    own = stmt.content | (whole.content if whole is not None else frozenset())
    _content_credit(stmt, passage, text_stems, vectors, weights, out, aliases, own)
    _directions(stmt, passage, out)
    if not out.conflicts:
        _swap(stmt, passage, text_stems, vectors, out)
    # Polarity, modality and the relation belong to the whole statement: "It is not safe to
    # use during pregnancy" asks about "during pregnancy" but denies all of it.
    whole = stmt if whole is None else whole
    best = max(parts, key=lambda p: len(whole.content & p.content)) if parts else passage
    shared = whole.content & best.content
    overlap = len(shared) / len(whole.content) if whole.content else 0.0
    if overlap >= CONFLICT_OVERLAP:
        _polarity(whole, best, shared, out)
        _modality(whole, best, shared, out)
    if _role_swap(whole, passage):
        out.conflicts.setdefault("relation", "the text states the relation the other way round")
    return out


def _check_numbers(
    stmt: Features, passage: Features, text_numbers: frozenset[str], out: UnitCheck
) -> None:
    """Numbers: a value of the same kind stated differently contradicts; one found nowhere is
    unsupported."""
    lacking_q = [(v, u) for v, u in sorted(stmt.quantities) if v not in passage.numbers]
    extra_q = [(v, u) for v, u in sorted(passage.quantities) if v not in stmt.numbers]
    # The same value counting something else: "40 litres" is not "40 gallons".
    for value, unit in sorted(stmt.quantities):
        theirs = {u for v, u in passage.quantities if v == value}
        if unit in MEASURES and theirs and unit not in theirs:
            other = sorted(u for u in theirs if u in MEASURES)
            if other:
                out.conflicts.setdefault(
                    "number",
                    f"'{_quantity_text(value, unit, stmt)}' is not in the text;"
                    f" it says {_quantity_text(value, other[0], passage)}",
                )
    for value, unit in lacking_q:
        # Another value counting the same thing, or standing in the same place ("in 1887" /
        # "in 1889", "Android 8 has" / "Android 9 has"); not any number of the passage.
        rival_q = next(
            (
                (v, u)
                for v, u in extra_q
                if (unit and unit == u) or _number_places(value, stmt) & _number_places(v, passage)
            ),
            None,
        )
        written = _quantity_text(value, unit, stmt)
        if value in text_numbers:
            continue  # stated elsewhere in the text
        if unit == "%" and value == "50" and "half" in passage.quantifiers:
            continue  # "50 percent of the students" is "half of the students"
        if rival_q is not None:
            said = _quantity_text(*rival_q, passage)
            out.conflicts.setdefault("number", f"'{written}' is not in the text; it says {said}")
        elif value != "1":  # "one spoonful" is often just "a spoonful"
            out.missing_numbers += 1
            out.missing.setdefault("number", f"'{written}' is not in the text")


#: Small words inside a name that an acronym skips ("Department of Health", "Bank of England").
_ACRONYM_LINKS = frozenset(["of", "and", "for", "the", "de", "&"])


def _acronyms(feats: Features) -> dict[str, frozenset[str]]:
    """Acronyms that runs of capitalised words spell, with their words.

    Example:
        >>> from scorekit.local._lexicon import features
        >>> sorted(_acronyms(features("He joined the European Central Bank.")))
        ['cb', 'ec', 'ecb']
    """
    names = {stem(n): n for n in feats.names | feats.maybe_names}
    out: dict[str, frozenset[str]] = {}
    runs: list[list[str]] = [[]]
    for st in feats.sequence:
        if st in names:
            runs[-1].append(names[st])
        elif not (st in _ACRONYM_LINKS and runs[-1]):
            runs.append([])
    for run in runs:
        for i in range(len(run)):
            for j in range(i + 2, len(run) + 1):
                out["".join(w[0] for w in run[i:j])] = frozenset(run[i:j])
    return out


def _content_credit(
    stmt: Features,
    passage: Features,
    text_stems: frozenset[str],
    vectors: Mapping[str, FloatArray] | None,
    weights: Mapping[str, float] | None,
    out: UnitCheck,
    aliases: frozenset[str] = frozenset(),
    own: frozenset[str] = frozenset(),
) -> None:
    """Credit of each content word: 1 when the passage has it (or says it as an acronym or
    its expansion: ``aliases``), a WordNet synonym of it, or its opposite denied ("does not
    open" for "is closed"), else a similar word's closeness ramped between ``WORD_LOW`` and
    ``WORD_HIGH``; nothing for an opposite ("fell" for "rose") unless the whole statement
    (``own``: its stems) says that opposite itself."""
    if not stmt.surface:
        return
    others = [w for _, w in passage.surface if w.isalpha()]
    pmat: FloatArray | None = None
    if vectors is not None and any(o in vectors for o in others):
        pmat = np.stack([vectors[o] for o in others if o in vectors])
    explained = stmt.privatives if (passage.negated or passage.privatives) else frozenset()
    # "cancelled" is found in "the cancellation": the same act of ending, as verb or noun.
    explained = explained | aliases | _privative_nouns(stmt, passage.privatives)
    durations = {v for v, u in stmt.quantities if u == "duration"}
    if durations and durations <= passage.numbers:
        # "90 minutes" states what "1.5 hours" does: the unit words agree with the number.
        explained = explained | DURATION_STEMS
    total = found = text_found = 0.0
    weakest = 1.0
    for st, word in stmt.surface:
        weight = 1.0 if weights is None else weights.get(st, 1.0)
        total += weight
        if st in passage.content or st in explained:
            credit = 1.0
        elif not word.isalpha():
            # Numbers are checked as numbers: one the passage states (as written or as the
            # same duration, "90 minutes" / "an hour and a half") is found.
            value = number_value(word)
            as_duration = bool(durations) and durations <= passage.numbers
            credit = 1.0 if value is not None and (value in passage.numbers or as_duration) else 0.0
        else:
            rival = opposites(st) & passage.content
            denied = any(st in scope for scope in stmt.negation_scopes) != any(
                scope & rival for scope in passage.negation_scopes
            )
            if rival and (denied or _converse(st, rival, stmt, passage)):
                credit = 1.0  # "does not open" is "is closed"; "A beat B" is "B lost to A"
            # An opposite the whole statement says itself ("led the study, which followed
            # patients") is that word, not a contradiction.
            elif rival and not (opposites(st) & (stmt.content | own)):
                theirs = _as_written(sorted(rival)[0], passage)
                out.conflicts.setdefault(
                    "opposite", f"'{word}' is not in the text; it says '{theirs}'"
                )
                credit = 0.0
            elif synonyms(st) & passage.content:
                credit = 1.0
            elif pmat is not None and vectors is not None and word in vectors:
                credit = _ramp(float((pmat @ vectors[word]).max()))
            else:
                credit = 0.0
        found += weight * credit
        text_found += weight * (1.0 if st in text_stems else credit)
        mine = credit if st not in text_stems else max(credit, 0.5)
        if mine < weakest:
            weakest, out.weakest_word = mine, word
    out.credit = found / total
    out.text_credit = text_found / total
    out.weakest = weakest


def _name_rest_found(name: str, stmt: Features, names: frozenset[str], passage: Features) -> bool:
    """Whether the word after ``name`` in the statement is a name word the passage has with no
    other name before it ("Gerwig", not "John Smith" for "David Smith")."""
    seq, pseq = stmt.sequence, passage.sequence
    mine = stem(name)
    if mine not in seq:
        return False
    i = seq.index(mine)
    if i + 1 >= len(seq) or not any(stem(n) == seq[i + 1] for n in names):
        return False
    rest = seq[i + 1]
    if rest not in pseq:
        return False
    theirs = {stem(n) for n in passage.names | passage.maybe_names}
    k = pseq.index(rest)
    return k == 0 or pseq[k - 1] not in theirs


def _converse(st: str, rival: frozenset[str], stmt: Features, passage: Features) -> bool:
    """The passage says the opposite with its two sides the other way round, which states the
    same ("Madrid beat Valencia" / "Valencia lost to Madrid", "A is more than B" / "B is less
    than A"): the shared content words nearest before and after ``st`` in the statement stand
    after and before its opposite in the passage."""
    seq, pseq = stmt.sequence, passage.sequence
    if st not in seq:
        return False
    i = seq.index(st)
    shared = stmt.content & passage.content
    before = next((w for w in reversed(seq[:i]) if w in shared and w.isalpha()), None)
    after = next((w for w in seq[i + 1 :] if w in shared and w.isalpha()), None)
    if before is None or after is None or before == after:
        return False
    k = next((j for j, w in enumerate(pseq) if w in rival), None)
    if k is None:
        return False
    return after in pseq[:k] and before in pseq[k + 1 :] and before not in pseq[:k]


def _privative_nouns(stmt: Features, theirs: frozenset[str]) -> frozenset[str]:
    """Stems of the statement's nouns of ending whose verb the passage uses, and of its verbs
    of ending the passage names as a noun."""
    if not theirs:
        return frozenset()
    return frozenset(
        st for st, word in stmt.surface if stem(PRIVATIVE_NOUNS.get(word, word)) in theirs
    )


#: Share of the statement's words both sides must hold before a verb of ending on one side
#: only ("dropped", "cancelled") counts as the opposite polarity.
_PRIVATIVE_OVERLAP = 0.8

#: Stems of units of measure: the same value in another of them is another quantity
#: ("40 litres" is not "40 gallons"; "50 entries" may well be "50 items").
MEASURES = frozenset(
    stem(w)
    for w in [
        "%",
        "percent",
        "litre",
        "liter",
        "gallon",
        "millilitre",
        "ml",
        "l",
        "kg",
        "kilogram",
        "gram",
        "g",
        "pound",
        "lb",
        "ounce",
        "oz",
        "tonne",
        # Months and years vary in length (not converted like durations): "2 years" is not
        # "2 months".
        "month",
        "year",
        "decade",
        "century",
        "ton",
        "km",
        "kilometre",
        "kilometer",
        "mile",
        "metre",
        "meter",
        "m",
        "cm",
        "mm",
        "inch",
        "foot",
        "feet",
        "yard",
        "dollar",
        "euro",
        "yen",
        "yuan",
        "franc",
        "rupee",
        "degree",
        "celsius",
        "fahrenheit",
        "kelvin",
        "watt",
        "kw",
        "kwh",
        "volt",
        "amp",
        "hertz",
        "hz",
        "ghz",
        "mhz",
        "gb",
        "mb",
        "tb",
        "kb",
        "byte",
        "bit",
        "acre",
        "hectare",
        "calorie",
        "kcal",
        "mph",
        "kph",
        "mi",
        "ft",
    ]
)

#: Words of a bound, often stated with a negation ("no more than" is "at most").
_BOUNDS = frozenset(
    [
        "most",
        "least",
        "more",
        "less",
        "fewer",
        "than",
        "max",
        "maximum",
        "minimum",
        "exceed",
        "exceeds",
    ]
)

#: Words after which a lower-case word is most likely a name ("of lyon", "in nantes").
_PLACE_WORDS = frozenset(["of", "in", "at", "from", "to", "by", "near", "for", "with", "against"])
#: Words that may stand between a place word and a name ("in the berlin office").
_ARTICLES = frozenset(["the", "a", "an"])
#: Content words a statement needs before one changed word counts as a changed fact.
_SWAP_MIN_WORDS = 3

#: Function words that state a direction or an order ("before noon" is not "after noon").
_DIRECTION_WORDS = {
    "before": "after", "after": "before", "above": "below", "below": "above",
    "over": "under", "under": "over", "more": "less", "less": "more", "up": "down",
    "down": "up", "into": "out", "most": "least", "least": "most",
}  # fmt: skip


def _directions(stmt: Features, passage: Features, out: UnitCheck) -> None:
    """A direction or order word turned round ("before noon" / "after noon"): the opposite
    word in the passage must bear on a word the statement's one bears on, so "planted after
    the frost" is not contradicted by "wait until the frost is over before planting"."""
    mine = stmt.words
    theirs = passage.words
    for word in sorted(mine & _DIRECTION_WORDS.keys()):
        other = _DIRECTION_WORDS[word]
        turned = word not in theirs and other in theirs and other not in mine
        if turned and _direction_heads(word, stmt) & _direction_heads(other, passage):
            out.conflicts.setdefault("opposite", f"'{word}' is not in the text; it says '{other}'")


def _direction_heads(word: str, feats: Features) -> set[str]:
    """Content stems ``word`` bears on: up to 3 words after it ("before [the] noon"), or
    before it when nothing follows ("prices went up")."""
    seq = feats.sequence
    target = stem(word)
    heads: set[str] = set()
    for i, w in enumerate(seq):
        if w == target:
            after = {x for x in seq[i + 1 : i + 4] if x in feats.content}
            heads |= after or {x for x in seq[max(0, i - 3) : i] if x in feats.content}
    return heads


def _number_places(value: str, feats: Features) -> set[tuple[str, str]]:
    """The words before and after each place a number of this value is written."""
    out: set[tuple[str, str]] = set()
    seq = feats.sequence
    for i, w in enumerate(seq):
        if number_value(w) == value:
            if i > 0:
                out.add(("before", seq[i - 1]))
            if i + 1 < len(seq):
                out.add(("after", seq[i + 1]))
    return out


def _neighbours(word: str, feats: Features) -> set[tuple[str, str]]:
    """``("before", w)`` and ``("after", w)`` for each place ``word`` stands (an edge of the
    text is no neighbour: two names that both end a sentence need not stand for each other)."""
    key = stem(word)
    seq = feats.sequence
    out: set[tuple[str, str]] = set()
    for i, w in enumerate(seq):
        if w == key:
            if i > 0:
                out.add(("before", seq[i - 1]))
            if i + 1 < len(seq):
                out.add(("after", seq[i + 1]))
    return out


def _same_slot(name: str, stmt: Features, rival: str, passage: Features) -> bool:
    """Whether ``rival`` stands where ``name`` stands: the same word before or after it
    ("John will ..." / "Maria will ...", "by Priya" / "by Tomas")."""
    return bool(_neighbours(name, stmt) & _neighbours(rival, passage))


def _swap(
    stmt: Features,
    passage: Features,
    text_stems: frozenset[str],
    vectors: Mapping[str, FloatArray] | None,
    out: UnitCheck,
) -> None:
    """One word changed, every other word the same: "the mayor of lyon" against "the mayor of
    nantes", whatever the case of the names. The word must stand where a name would (after
    "of", "in", "at" ...), be found nowhere in the text, and the passage must have another
    word, not a synonym, in its place (the same word before or after it)."""
    lacking = [st for st, _ in stmt.surface if st not in passage.content and st.isalpha()]
    if len(lacking) != 1 or len(stmt.content) < _SWAP_MIN_WORDS or lacking[0] in text_stems:
        return
    gone = lacking[0]
    seq, pseq = stmt.sequence, passage.sequence
    if gone not in seq:
        return
    i = seq.index(gone)
    # Only where a name would stand: "the mayor of lyon", "born in nantes", "in the berlin
    # office" (an article may come between).
    at = i - 1 if i > 0 and seq[i - 1] not in _ARTICLES else i - 2
    if at < 0 or seq[at] not in _PLACE_WORDS or synonyms(gone) & passage.content:
        return
    before = seq[i - 1] if i > 0 else None
    after = seq[i + 1] if i + 1 < len(seq) else None
    for j, other in enumerate(pseq):
        if other in stmt.content or other in STOPWORDS or not other.isalpha():
            continue
        same_before = before is not None and j > 0 and pseq[j - 1] == before
        same_after = after is not None and j + 1 < len(pseq) and pseq[j + 1] == after
        if not (same_before or same_after):
            continue
        mine = _as_written(gone, stmt)
        theirs = _as_written(other, passage)
        if _closeness(mine, theirs, vectors) >= SAME_WORD:
            return  # a synonym in its place
        out.conflicts.setdefault("swap", f"'{mine}' is not in the text; it says '{theirs}'")
        return


def _polarity(stmt: Features, best: Features, shared: frozenset[str], out: UnitCheck) -> None:
    theirs = len(best.negation_scopes)
    ours = len(stmt.negation_scopes)
    # A negation counts only when it denies words both sides share ("is not refunded" vs
    # "is refunded"), not a clause of its own ("... if he is not sure").
    bears = any(scope & shared for scope in (*best.negation_scopes, *stmt.negation_scopes))
    # "no more than 50" states what "at most 50" does.
    bounds = bool(_BOUNDS & set(stmt.sequence)) or bool(_BOUNDS & set(best.sequence))
    if theirs % 2 != ours % 2 and bears and not bounds:
        # "Support was dropped" states what "is no longer supported" does.
        plain, other = (best, stmt) if ours % 2 else (stmt, best)
        if plain.privatives - other.content:
            return
        out.conflicts.setdefault(
            "polarity",
            "the text states the opposite (it negates this)"
            if theirs % 2
            else "the text states the opposite (this negates it)",
        )
    elif (
        not ours
        and not theirs
        and len(shared) >= _PRIVATIVE_OVERLAP * len(stmt.content - stmt.privatives)
    ):
        # "Support was dropped" against "Android 8 is supported": nearly the same words, an
        # ending on one side only.
        # A verb of ending whose opposite the other side has ("lost" / "beat") is an opposite,
        # checked with the content words (where "B lost to A" may be "A beat B").
        mine = {
            w
            for w in stmt.privatives - best.content - best.privatives
            if not opposites(w) & best.content
        }
        ends = {
            w
            for w in best.privatives - stmt.content - stmt.privatives
            if not opposites(w) & stmt.content
        }
        if bool(mine) != bool(ends):
            word = sorted(mine or ends)[0]
            out.conflicts.setdefault(
                "polarity", f"the text states the opposite ('{word}' on one side only)"
            )


def _modality(stmt: Features, best: Features, shared: frozenset[str], out: UnitCheck) -> None:
    mine = stmt.hedges & shared
    theirs = best.hedges & shared
    # Hedged on both sides, whatever word each hedge bears on ("is expected on Thursday" /
    # "will probably be a lot of rain"), is no change of modality.
    if (mine and not best.hedges) or (theirs and not stmt.hedges):
        word = _as_written(sorted(mine or theirs)[0], stmt if mine else best)
        out.conflicts.setdefault(
            "modality",
            f"'{word}' is hedged here; the text states it as certain"
            if mine
            else f"the text only says '{word}' might happen",
        )
    mine = stmt.quantifiers - best.quantifiers
    theirs = best.quantifiers - stmt.quantifiers
    if mine and theirs:
        out.conflicts.setdefault(
            "quantifier", f"'{sorted(mine)[0]}' where the text says '{sorted(theirs)[0]}'"
        )


def _role_swap(stmt: Features, passage: Features) -> bool:
    """ "Arsenal beat Chelsea" against "Chelsea beat Arsenal": two shared words on either side
    of a shared word, in the opposite order (a passive "was beaten by" on one side only turns
    the order round as well)."""
    s_pos = _first_positions(stmt.sequence, stmt.content)
    p_pos = _first_positions(passage.sequence, stmt.content & passage.content)
    shared = [w for w in s_pos if w in p_pos]
    if len(shared) < 3:
        return False
    by_stmt = sorted(shared, key=lambda w: s_pos[w])
    # Only the nearest shared words on either side of a shared word, close to it on both
    # sides: "Arsenal beat Chelsea", not two clauses of a long sentence in another order.
    # Positions among the content words only: the three must be next to each other on both
    # sides ("dog bit postman" / "postman bit dog"), not an inverted noun phrase ("offline
    # sync for shared notebooks" / "shared notebooks now sync offline").
    s_c = _slots(stmt, stmt.content)
    p_c = _slots(passage, stmt.content)
    for a, v, b in zip(by_stmt, by_stmt[1:], by_stmt[2:], strict=False):
        near_s = s_pos[v] - s_pos[a] <= _NEAR and s_pos[b] - s_pos[v] <= _NEAR
        near_p = 0 < p_pos[v] - p_pos[b] <= _NEAR and 0 < p_pos[a] - p_pos[v] <= _NEAR
        adjacent = (s_c[v] - s_c[a], s_c[b] - s_c[v], p_c[v] - p_c[b], p_c[a] - p_c[v]) == (
            1, 1, 1, 1,
        )  # fmt: skip
        near_s = near_s and adjacent
        # "the capital of France" is "France's capital": an "of" after the middle word.
        genitive = "of" in (_after(stmt.sequence, s_pos[v]), _after(passage.sequence, p_pos[v]))
        # A passive ("is credited to", "was given by", "the oil should be changed") names its
        # roles the other way round.
        passive = _BE & {
            *(_before(stmt.sequence, s_pos[w]) for w in (a, v, b)),
            *(_before(passage.sequence, p_pos[w]) for w in (a, v, b)),
        }
        if near_s and near_p and not genitive and not passive:
            passive_s = _after(stmt.sequence, s_pos[v]) == "by"
            passive_p = _after(passage.sequence, p_pos[v]) == "by"
            if passive_s == passive_p:
                return True
    return False


_BE = frozenset(["is", "are", "was", "were", "be", "been", "being", "get", "got", "gets"])
#: Words between a verb and its subject or object for the relation check.
_NEAR = 4


def _slots(feats: Features, keep: frozenset[str]) -> dict[str, int]:
    """Position of each kept stem among the content words, a name of several words taking one
    place ("Real Madrid beat Valencia": real 0, madrid 0, beat 1, valencia 2)."""
    names = {stem(n) for n in feats.names | feats.maybe_names}
    out: dict[str, int] = {}
    slot, in_name = -1, False
    for w in feats.sequence:
        if w not in feats.content:
            in_name = False
            continue
        if not (in_name and w in names):
            slot += 1
        in_name = w in names
        if w in keep:
            out.setdefault(w, slot)
    return out


def _first_positions(sequence: tuple[str, ...], keep: frozenset[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for i, w in enumerate(sequence):
        if w in keep and w not in out:
            out[w] = i
    return out


def _before(sequence: tuple[str, ...], i: int) -> str:
    return sequence[i - 1] if i > 0 else ""


def _after(sequence: tuple[str, ...], i: int) -> str:
    return sequence[i + 1] if i + 1 < len(sequence) else ""


__all__ = ["UnitCheck", "check_units", "opposites"]
