"""The local judge's entailment model (issue 21) and the combiner that weighs it (issue 35)."""

from __future__ import annotations

import hashlib
import json
import math
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from scorekit.judges import JudgeConfigError
from scorekit.local._entail import (
    CLIP,
    ENTAILMENT_FILE,
    ENTAILMENT_SHA256,
    Entailer,
    load_entailer,
)
from scorekit.local._model import load_encoder
from scorekit.local._support import match
from scorekit.local._verdict import (
    COMBINER_FEATURES,
    WEIGHTS_FILE,
    Inputs,
    read_weights,
    reason,
    weights,
)


@pytest.fixture(scope="module")
def entailer() -> Entailer:
    return load_entailer()


def test_the_shipped_model_is_small_and_matches_its_checksum() -> None:
    data = ENTAILMENT_FILE.read_bytes()
    assert len(data) < 30_000_000
    assert hashlib.sha256(data).hexdigest() == ENTAILMENT_SHA256


def test_entailed_statements_score_above_contradicted_ones(entailer: Entailer) -> None:
    passage = "A man in a red jacket is riding a bicycle down a busy street."
    yes, no, other = entailer.log_odds(
        [
            ("A man is riding a bicycle.", passage),
            ("A man is sleeping in his bed.", passage),
            ("A woman is riding a horse on a beach.", passage),
        ]
    )
    assert yes > 0.0
    assert no < 0.0 and other < 0.0
    assert min(yes, no, other) >= -CLIP and max(yes, no, other) <= CLIP


def test_an_answer_does_not_depend_on_what_else_is_asked(entailer: Entailer) -> None:
    pair = ("The museum reopened in May.", "After repairs, the museum reopened its doors in May.")
    alone = Entailer(entailer._session, entailer._tokenizer, entailer.path).log_odds([pair])
    crowd = [("x" * 40, "A very long passage " * 30), pair, ("Short.", "Short one.")]
    together = Entailer(entailer._session, entailer._tokenizer, entailer.path).log_odds(crowd)
    assert together[1] == alone[0]
    assert entailer.log_odds([pair, pair]) == [alone[0], alone[0]]


def test_a_corrupt_model_file_is_a_clear_error(tmp_path: Path) -> None:
    broken = tmp_path / "entailment.onnx"
    shutil.copy(ENTAILMENT_FILE, broken)
    with broken.open("r+b") as fh:
        fh.seek(1000)
        fh.write(b"\0\0\0\0")
    with pytest.raises(JudgeConfigError) as err:
        load_entailer(broken)
    message = str(err.value)
    assert "entailment model" in message and "is corrupt" in message
    assert "pip install --force-reinstall llm-scorekit" in message


def test_a_missing_model_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(JudgeConfigError, match="does not exist; reinstall the package"):
        load_entailer(tmp_path / "nowhere.onnx")


def test_match_carries_the_entailment_of_the_best_passage(entailer: Entailer) -> None:
    text = "The bridge opened in 1932. It carries six lanes of traffic. Tolls were dropped in 2001."
    stmts = ["The bridge carries six lanes of traffic.", "The bridge was closed in 1932."]
    with_model = match(load_encoder(), text, stmts, entailer)
    without = match(load_encoder(), text, stmts)
    assert [m.entail for m in without if m] == [None, None]
    values = [m.entail for m in with_model if m]
    assert values[0] is not None and values[1] is not None
    assert values[0] > 0.0 > values[1]
    # The lexical signals are the same with or without the model.
    assert [m.signals for m in with_model if m] == [m.signals for m in without if m]


def test_a_fact_told_over_two_sentences_is_entailed(entailer: Entailer) -> None:
    text = (
        "Maria Lopez joined the company in 2015. The weather was cold that winter."
        " She now leads its research team."
    )
    (found,) = match(load_encoder(), text, ["Maria Lopez leads the research team."], entailer)
    assert found is not None and found.entail is not None and found.entail > 0.0


def _inputs(**kw: float) -> Inputs:
    base = dict(
        lexical=3.0, veto_names=0.0, veto_polarity=0.0, veto_other=0.0, said=0.0, entail=0.0,
        pairs_passage=0.5, pairs_text=0.5, bigrams_text=0.5, sentences=10.0,
    )  # fmt: skip
    base.update(kw)
    return Inputs(**base)


def test_the_combiner_lifts_what_the_model_entails_and_lowers_what_it_doubts() -> None:
    c = weights().combiner
    assert c is not None
    plain = c.probability(_inputs())
    assert c.probability(_inputs(entail=6.0)) >= plain
    assert c.probability(_inputs(entail=-6.0)) <= plain
    # ... and more word pairs of the statement in the text never lower it.
    assert c.probability(_inputs(pairs_text=1.0, pairs_passage=1.0)) >= plain


def test_a_veto_keeps_its_share_whatever_the_rest_says() -> None:
    c = weights().combiner
    assert c is not None
    strong = dict(lexical=12.0, entail=12.0, pairs_passage=1.0, pairs_text=1.0, bigrams_text=1.0)
    free = c.probability(_inputs(**strong))
    changed_number = c.probability(_inputs(**strong, veto_other=math.log(1 - 0.975)))
    assert changed_number < 0.5 * free


def test_the_packaged_weights_hold_a_fitted_combiner() -> None:
    doc = json.loads(WEIGHTS_FILE.read_text(encoding="utf-8"))
    assert doc["combiner"]["features"] == list(COMBINER_FEATURES)
    assert "combiner_held_out_figures" in doc


def test_a_malformed_combiner_is_refused(tmp_path: Path) -> None:
    doc = json.loads(WEIGHTS_FILE.read_text(encoding="utf-8"))
    doc["combiner"] = {"features": list(COMBINER_FEATURES), "coef": "much"}
    bad = tmp_path / "verdict.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(ValueError, match="'combiner' must hold 'features', 'coef', 'intercept'"):
        read_weights(bad)
    doc["combiner"] = {"features": ["lexical"], "coef": [1.0], "intercept": 0.0,
                       "veto_strengths": {"names": 1, "polarity": 1, "other": 1}}  # fmt: skip
    bad.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(ValueError, match="fitted for features"):
        read_weights(bad)


def test_the_model_lowers_a_claim_made_of_the_texts_own_words(entailer: Entailer) -> None:
    # Every word of the invented claim is in the text; the claim is not.
    text = (
        "The company opened a new office in Berlin in 2019. It hired 200 engineers there."
        " Sales in Europe doubled the next year."
    )
    stated, invented = match(
        load_encoder(),
        text,
        [
            "The company hired 200 engineers in Berlin.",
            "The company closed its office in Berlin after sales doubled.",
        ],
        entailer,
    )
    assert stated is not None and invented is not None
    w = weights()
    assert w.answer(invented) <= 0.5
    assert w.answer(stated) >= 0.9


def test_the_reason_says_the_text_does_not_state_it(entailer: Entailer) -> None:
    text = "The council approved the new park in March. Building starts next year."
    (found,) = match(load_encoder(), text, ["The council approved the park."], entailer)
    assert found is not None
    doubted = replace(found, entail=-4.0)
    assert reason(doubted, 0.3) == (
        "the text does not say this; closest: 'The council approved the new park in March.'"
    )
    assert reason(replace(found, entail=None), 0.3) == (
        "only partly stated; closest: 'The council approved the new park in March.'"
    )
    assert reason(doubted, 0.9) is None
