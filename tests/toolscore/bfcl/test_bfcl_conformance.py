"""Our verdicts beside BFCL's own checker (bfcl-eval), on generated variants of the shipped
sample records (tests/toolscore/bfcl/data: 25 records of each single-turn Python category).

The generated outputs come from ``bfcl_mutations`` (values, string styles, types, names,
missing and extra parameters, call counts, orders, list items, dict keys, variable slots and
mixtures). Every verdict must be identical: ``valid`` and, when invalid, ``error_type``. Inputs
on which BFCL's checker itself raises are counted and left out. The full >= 10,000-case
measurement is ``benchmarks/bench_bfcl.py``.

``bfcl-eval`` is installed by ``.ci/run`` (``pip install --no-deps bfcl-eval``); without it
these tests skip and say how to install it.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import bfcl_mutations
import bfcl_reference
import bfcl_synthetic
import pytest

from toolscore.bfcl import check
from toolscore.bfcl._output import DecodeFailure, is_call_format, read_output

pytestmark = pytest.mark.skipif(not bfcl_reference.available(), reason=bfcl_reference.INSTALL_HINT)

CASES = 2000


def test_verdicts_match_bfcls_checker_on_generated_variants() -> None:
    records = bfcl_mutations.load_records()
    assert {r.category for r in records} == set(bfcl_mutations.CATEGORIES)
    kinds: Counter[str] = Counter()
    verdicts: Counter[str] = Counter()
    crashes = 0
    disagreements = []
    for n, case in enumerate(bfcl_mutations.generate(records, CASES, seed=20240601)):
        # every other case lets check() pick the checker from the record's shape
        category = case.record.category if n % 2 else None
        theirs, ours = bfcl_reference.both_verdicts(case, category)
        if theirs is None:
            crashes += 1
            continue
        kinds[case.kind] += 1
        verdicts[theirs[1] or "valid"] += 1
        if ours != theirs:
            disagreements.append((case.record.id, case.kind, case.output, theirs, ours))
    assert not disagreements, "\n".join(
        f"{i} {k}: BFCL {t}, ours {v}; output {o}" for i, k, o, t, v in disagreements[:10]
    )
    assert crashes < CASES * 0.01
    # the variants reach every kind and a spread of BFCL's verdicts
    assert set(kinds) == set(bfcl_mutations.KINDS)
    assert verdicts["valid"] > CASES * 0.1
    assert len(verdicts) >= 12


def test_verdicts_match_bfcls_checker_on_made_up_records() -> None:
    # Records unlike BFCL's data (random schemas, answers and outputs): the rules, not the data.
    seen: Counter[str] = Counter()
    crashes = 0
    for case in bfcl_synthetic.generate(1000, seed=5):
        theirs, ours = bfcl_reference.both_verdicts(case, case.record.category)
        if theirs is None:
            crashes += 1
            continue
        assert ours == theirs, (case.record, case.output)
        seen[theirs[1] or "valid"] += 1
    assert crashes < 50 and len(seen) >= 12 and seen["valid"] > 50


def _source(value: Any, rng: random.Random) -> str:
    """A value as a model might write it in Python call syntax (sometimes oddly)."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        return rng.choice([repr(value), repr(value), f"{value - 1} + 1", f"+{value}"])
    if isinstance(value, float):
        return rng.choice([repr(value), repr(value), f"-{-value!r}" if value < 0 else repr(value)])
    if isinstance(value, str):
        return rng.choice([repr(value), repr(value), "variable_name", "data['key']", "math.pi"])
    if isinstance(value, list):
        items = ", ".join(_source(v, rng) for v in value)
        return rng.choice([f"[{items}]", f"[{items}]", f"({items},)", f"{{{items}}}"])
    if isinstance(value, dict):
        items = ", ".join(f"{k!r}: {_source(v, rng)}" for k, v in value.items())
        return rng.choice([f"{{{items}}}", f"dict({items})" if not value else f"{{{items}}}"])
    return repr(value)


def _text(calls: list[Any], rng: random.Random) -> str:
    parts = []
    for call in calls:
        ((name, args),) = call.items()
        inner = [f"{k}={_source(v, rng)}" for k, v in args.items()]
        if rng.random() < 0.1:
            inner.insert(0, "42")  # a positional argument: BFCL's decoder drops it
        parts.append(f"{name}({', '.join(inner)})")
    body = ", ".join(parts)
    return rng.choice(
        [
            f"[{body}]",
            f"[{body}]",
            body,
            f"```python\n[{body}]\n```",
            f"'[{body}]'",
            f"[{body}] ",
            "\n".join(parts),
            f"I will call [{body}]",
            f"[{body}",
        ]
    )


def test_prompt_mode_texts_decode_as_bfcls_decoder_reads_them() -> None:
    records = bfcl_mutations.load_records()
    rng = random.Random(7)
    outcomes: Counter[str] = Counter()
    for case in bfcl_mutations.generate(records, 600, seed=11):
        text = _text(case.output, rng)
        status, decoded = bfcl_reference.reference_decode(text)
        try:
            ours = read_output(text)
            mine = ("ok", ours) if is_call_format(ours) else ("format", None)
        except DecodeFailure as failure:
            mine = ("failed", None)
            assert failure.error_type == "ast_decoder:decoder_failed"
        outcomes[status] += 1
        assert mine == (status, decoded), text
        if status == "ok":
            record = case.record
            theirs = bfcl_reference.reference_check(
                record.functions,
                record.ground_truth,
                decoded,
                record.category,
                case.underscore_to_dot,
            )
            v = check(
                record.functions,
                record.ground_truth,
                text,
                underscore_to_dot=case.underscore_to_dot,
                category=record.category,
            )
            if theirs is not None:
                assert (v.valid, v.error_type) == theirs, text
    assert outcomes["ok"] > 200 and outcomes["failed"] > 50
