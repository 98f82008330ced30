"""What the local judge can read: clean Unicode, and English.

The judge's word tables, unit checks and models are English. A text in another language would
still share its first words or its names with the other text and score high with confidence,
so such a text is refused with a message that names the way out (an LLM judge). Invalid
Unicode (a lone surrogate, a control character) would stop the tokenizer with a ``TypeError``;
it is cleaned instead: nothing a reader sees depends on it.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

from scorekit.judges._errors import JudgeConfigError
from scorekit.local._lexicon import vocabulary

#: Lone surrogates (not text in any encoding) and control characters other than tab and
#: newlines. Surrogates are dropped; controls become a space (they often stand for one).
_SURROGATES = re.compile("[\ud800-\udfff]")
_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
#: Letters of scripts other than Latin may make up this share of a text's letters (names,
#: a quoted word); beyond it the text is not English.
OTHER_SCRIPT_SHARE = 0.3
#: Texts with fewer words than this are too short to judge a language by (a title, a list).
MIN_WORDS = 8
#: A Latin-script text is English when at least this share of its words are English function
#: words (about 40 % in running English prose, and over 15 % even in terse summaries) ...
ENGLISH_SHARE = 0.12
#: ... or when it holds no more function words of another language than English ones and at
#: least this share of its words are whole words of the model's (English) vocabulary.
KNOWN_SHARE = 0.5
#: English function words (most of them too short to be a name or a keyword).
_ENGLISH = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "to",
        "in",
        "on",
        "at",
        "by",
        "for",
        "from",
        "with",
        "and",
        "or",
        "but",
        "not",
        "no",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "has",
        "have",
        "had",
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
        "this",
        "that",
        "these",
        "those",
        "it",
        "its",
        "he",
        "she",
        "they",
        "we",
        "you",
        "his",
        "her",
        "their",
        "our",
        "your",
        "there",
        "which",
        "who",
        "what",
        "when",
        "where",
        "how",
        "as",
        "if",
        "than",
        "then",
        "so",
        "about",
        "after",
        "before",
        "into",
        "over",
        "under",
        "up",
        "out",
    ]
)
#: Frequent function words of the Latin-script languages most often met instead of English
#: (Spanish, French, German, Italian, Portuguese, Dutch); none is also an English word.
_OTHER = frozenset(
    [
        "el",
        "los",
        "las",
        "del",
        "por",
        "para",
        "una",
        "y",
        "es",
        "que",
        "se",
        "su",
        "como",
        "pero",
        "muy",
        "esta",
        "este",
        "le",
        "les",
        "des",
        "du",
        "et",
        "est",
        "une",
        "dans",
        "pour",
        "avec",
        "qui",
        "pas",
        "ce",
        "cette",
        "sont",
        "au",
        "aux",
        "ou",
        "der",
        "die",
        "das",
        "und",
        "ist",
        "nicht",
        "mit",
        "dem",
        "ein",
        "eine",
        "zu",
        "auf",
        "sich",
        "auch",
        "von",
        "wird",
        "sind",
        "il",
        "di",
        "che",
        "della",
        "non",
        "gli",
        "sono",
        "alla",
        "nel",
        "uno",
        "os",
        "da",
        "em",
        "um",
        "uma",
        "com",
        "nao",
        "mais",
        "het",
        "een",
        "en",
        "zijn",
        "niet",
        "dat",
        "voor",
    ]
)
_WORD = re.compile(r"[^\W\d_]+")
_WAY_OUT = (
    "the local judge reads English only; score this text with an LLM judge"
    " (--llm-provider, or provider= in the settings), which reads other languages"
)


def clean(text: str) -> str:
    """``text`` without lone surrogates, with control characters as spaces.

    Example:
        >>> clean("Paris\\ud800 is\\x00large.")
        'Paris is large.'
    """
    if text.isascii() and text.isprintable():
        return text
    return _CONTROLS.sub(" ", _SURROGATES.sub("", text))


def check_language(text: str, what: str = "a text") -> None:
    """Raise :class:`JudgeConfigError` when ``text`` is mostly not English.

    A text mostly in another script, or a Latin-script text of at least :data:`MIN_WORDS`
    words with few English function words and more of another language's, is refused; a few
    foreign names or words in an English text are not.

    Example:
        >>> check_language("Der Turm ist sehr hoch und wurde 1889 gebaut.")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        scorekit.judges._errors.JudgeConfigError: The local judge cannot read a text: ...
    """
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return
    scripts = Counter(_script(c) for c in letters)
    other = sum(n for s, n in scripts.items() if s != "LATIN")
    if other > OTHER_SCRIPT_SHARE * len(letters):
        script = max((s for s in scripts if s != "LATIN"), key=lambda s: (scripts[s], s))
        raise JudgeConfigError(
            f"The local judge cannot read {what}: {other} of its {len(letters)} letters are"
            f" {script.title()} script, not English ({_quote(text)}); {_WAY_OUT}."
        )
    words = [w.lower() for w in _WORD.findall(text)]
    if len(words) < MIN_WORDS:
        return
    english = sum(w in _ENGLISH for w in words)
    foreign = sum(w in _OTHER for w in words)
    if english >= ENGLISH_SHARE * len(words):
        return
    known = vocabulary()
    unknown = sum(w not in known for w in words)
    if foreign > english or unknown > (1.0 - KNOWN_SHARE) * len(words):
        raise JudgeConfigError(
            f"The local judge cannot read {what}: it does not read as English (only {english}"
            f" of its {len(words)} words are English function words, {foreign} are those of"
            f" another language, {unknown} are not English words: {_quote(text)}); {_WAY_OUT}."
        )


def _script(char: str) -> str:
    name = unicodedata.name(char, "")
    return name.split(" ", 1)[0] if name else "UNKNOWN"


def _quote(text: str) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= 60 else flat[:57] + "...")
