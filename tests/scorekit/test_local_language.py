"""The local judge on text it cannot read (issue 35): other languages, invalid Unicode.

The judge reads English. A text mostly in another script, or a Latin-script text that does not
read as English, gets a ``JudgeConfigError`` naming the language problem and the way out (an
LLM judge), never a confident score; an English text with a few foreign names is scored as any
other. Lone surrogates and control characters are cleaned, never a crash.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pytest_texts_score._pipeline import evaluate_texts
from scorekit.judges import JudgeConfigError, JudgeError, resolve_settings
from scorekit.local import LocalBackend
from scorekit.local._language import check_language, clean
from scorekit.session import ScoreSession


@pytest.fixture(scope="module")
def session() -> Iterator[ScoreSession]:
    s = ScoreSession(resolve_settings(overrides={"cache": "off"}, env={}), backend=LocalBackend())
    yield s
    s.close()


ARABIC = "افتتح المتحف الجديد في المدينة يوم الاثنين. وحضر الافتتاح مئات الزوار."
ARABIC_OTHER = "افتتح المتحف الجديد في القاهرة يوم الجمعة. وألغي الحفل بسبب المطر الشديد."


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (ARABIC, "Arabic script"),
        ("Новый музей открылся в понедельник. Его посетили сотни людей.", "Cyrillic script"),
        ("新しい博物館は月曜日に開館しました。数百人が訪れました。", "script, not English"),
        ("Das neue Museum wurde am Montag eröffnet, und es kamen hunderte Besucher in die Stadt.",
         "does not read as English"),
        ("El nuevo museo abrió el lunes y lo visitaron cientos de personas de la ciudad.",
         "does not read as English"),
    ],
    ids=["arabic", "russian", "japanese", "german", "spanish"],
)  # fmt: skip
def test_a_text_in_another_language_is_refused_with_the_way_out(
    session: ScoreSession, text: str, says: str
) -> None:
    # Through the scoring pipeline the local judge's own JudgeConfigError reaches the caller.
    with pytest.raises(JudgeConfigError) as info:
        evaluate_texts(text, text, session=session)
    message = str(info.value)
    assert says in message
    assert "reads English only" in message
    assert "--llm-provider" in message


def test_arabic_texts_that_share_their_first_words_get_no_score(session: ScoreSession) -> None:
    # Before issue 35 these scored F1 1.0: the shared first words were all the judge could see.
    with pytest.raises(JudgeError, match="Arabic script"):
        evaluate_texts(ARABIC, ARABIC_OTHER, session=session)
    with pytest.raises(JudgeConfigError, match="Arabic script"):
        LocalBackend().make_questions(ARABIC_OTHER)


def test_the_other_side_is_checked_too(session: ScoreSession) -> None:
    english = "The new museum opened on Monday. Hundreds of visitors came to see it."
    judge = LocalBackend()
    questions = judge.make_questions(english)
    with pytest.raises(JudgeConfigError, match="the text answering"):
        judge.answer_questions(ARABIC, questions)
    with pytest.raises(JudgeConfigError, match="the text asked about"):
        judge.make_questions(ARABIC)
    with pytest.raises(JudgeError, match="Arabic script"):
        evaluate_texts(english, ARABIC, metric="recall", session=session)


@pytest.mark.parametrize(
    "text",
    [
        "The company was founded by 马云 in Hangzhou in 1999 and was listed in New York in 2014.",
        "Le Monde reported that the Élysée Palace will host the summit in Paris next spring.",
        "Zoë Müller-Lüdenscheidt and José García presented the results at the conference.",
        "Quillpad 4.1: offline sync, PDF export, dark mode, tags, search, widgets, themes",
    ],
    ids=["han-name", "french-names", "accented-names", "keyword-list"],
)
def test_english_with_foreign_names_is_scored(session: ScoreSession, text: str) -> None:
    out = evaluate_texts(text, text, session=session)
    assert out.f1 is not None and out.f1 >= 0.95


def test_a_lone_surrogate_is_cleaned_not_a_crash(session: ScoreSession) -> None:
    expected = "The museum opened in May. It has 40 rooms."
    broken = "The museum opened in May.\ud800 It has 40 rooms.\udfff"
    out = evaluate_texts(expected, broken, session=session)
    plain = evaluate_texts(expected, clean(broken), session=session)
    assert out.f1 is not None and out.f1 >= 0.95
    assert (out.precision, out.recall) == (plain.precision, plain.recall)


def test_control_characters_are_read_as_spaces(session: ScoreSession) -> None:
    out = evaluate_texts(
        "The museum opened in May.", "The museum\x00opened in\x1bMay.\x7f", session=session
    )
    assert out.f1 is not None and out.f1 >= 0.95


def test_clean_keeps_ordinary_text_and_drops_only_what_is_invalid() -> None:
    assert clean("Café, naïve — 50 °C\tok\n") == "Café, naïve — 50 °C\tok\n"
    assert clean("a\ud83db\x00c\x9fd") == "ab c d"


def test_short_texts_are_not_judged_by_language() -> None:
    check_language("Danke schön.")  # too short to tell: scored as the judge can
    check_language("Paris, Berlin, Madrid, Roma.")
    with pytest.raises(JudgeConfigError, match="Greek script"):
        check_language("Καλημέρα κόσμε")
