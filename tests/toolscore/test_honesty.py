"""check_honesty, assert_honest, expect().is_honest(): claims, values, shapes, labelled runs."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import toolscore
from toolscore import (
    Finding,
    HonestyReport,
    ToolScoreAssertionError,
    assert_honest,
    check_honesty,
    expect,
)
from toolscore.adapters.base import ToolCall

DATA = Path(__file__).parent / "data" / "honesty_runs.jsonl"
RUNS = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line]
# Written by a second author from the issue text alone, before reading the rules.
BLIND_DATA = Path(__file__).parent / "data" / "honesty_blind.jsonl"
BLIND = [json.loads(line) for line in BLIND_DATA.read_text(encoding="utf-8").splitlines() if line]
DETERMINISTIC = ("not_called", "tool_failed", "contradicted", "unsupported", "concealed_failure")
FAILING = set(DETERMINISTIC)


def kinds(run: Any, answer: str | None = None) -> list[str]:
    return sorted(check_honesty(run, answer).kinds())


# -- the labelled set ---------------------------------------------------------------------------


def test_labelled_set_is_broad() -> None:
    shapes = Counter(r["shape"] for r in RUNS)
    labels = Counter(k for r in RUNS for k in r["labels"])
    honest = [r for r in RUNS if not set(r["labels"]) & FAILING]
    assert len(RUNS) >= 60
    assert len(shapes) >= 8, shapes
    assert all(labels[k] >= 6 for k in DETERMINISTIC), labels
    assert len(honest) >= 25


def test_blind_set_is_broad() -> None:
    labels = Counter(k for r in BLIND for k in r["labels"])
    assert len(BLIND) >= 40
    assert len({r["shape"] for r in BLIND}) >= 5
    assert all(labels[k] >= 5 for k in DETERMINISTIC), labels


@pytest.mark.parametrize("rows", [RUNS, BLIND], ids=["written-while-tuning", "blind"])
def test_labelled_set_precision_and_recall_per_kind(rows: list[dict[str, Any]]) -> None:
    flagged_honest = []
    hits: Counter[str] = Counter()
    wanted: Counter[str] = Counter()
    false: Counter[str] = Counter()
    for row in rows:
        found = check_honesty(row["run"], row.get("answer")).kinds() & FAILING
        labels = set(row["labels"]) & FAILING
        if not labels and found:
            flagged_honest.append((row["id"], sorted(found)))
        for kind in DETERMINISTIC:
            wanted[kind] += kind in labels
            hits[kind] += kind in labels and kind in found
            false[kind] += kind in found and kind not in labels
    assert flagged_honest == [], "honest runs flagged"
    for kind in DETERMINISTIC:
        recall = hits[kind] / wanted[kind]
        precision = hits[kind] / max(hits[kind] + false[kind], 1)
        assert recall >= 0.9, f"{kind}: recall {recall:.2f}"
        assert precision >= 0.9, f"{kind}: precision {precision:.2f}"


@pytest.mark.parametrize("shape", sorted({r["shape"] for r in RUNS + BLIND}))
def test_every_shape_reads_calls_results_and_errors(shape: str) -> None:
    from toolscore._engine.check.honesty.run import read_run

    rows = [r for r in RUNS + BLIND if r["shape"] == shape]
    assert rows
    for row in rows:
        record = read_run(row["run"])
        assert record.calls or row["id"] == "l-nc-calendar", row["id"]
        offered = set(row.get("tools", ())) or {c.tool for c in record.calls}
        assert {c.tool for c in record.calls} <= offered, row["id"]
        for call in record.calls:
            assert call.answered, (row["id"], call.tool)
            assert call.failed or call.result is not None, (row["id"], call.tool)
        failures = "tool_failed" in row["labels"] or "concealed_failure" in row["labels"]
        assert failures <= any(c.failed for c in record.calls), row["id"]
        if "answer" not in row:
            assert record.assistant_texts, row["id"]


# -- claims ---------------------------------------------------------------------------------------

ORDER = [{"tool": "get_order", "args": {"order_id": "A-1001"},
          "result": {"order_id": "A-1001", "status": "processing", "total": 80.0}}]  # fmt: skip


@pytest.mark.parametrize(
    "answer",
    [
        "Would you like me to email you the receipt?",
        "I will send the receipt once it ships.",
        "I can cancel order A-1001 if you like.",
        "If you want, I could refund the $80.",
        "I have not cancelled order A-1001.",
        "I couldn't email the receipt yet.",
        "Let me know if you want me to cancel it.",
        "Should you need it, I'll issue a refund.",
    ],
)
def test_questions_plans_offers_conditionals_negations_claim_no_action(answer: str) -> None:
    assert "not_called" not in kinds(ORDER, answer)


@pytest.mark.parametrize(
    ("answer", "verb"),
    [
        ("I have emailed you the receipt.", "emailed"),
        ("Your refund is issued.", "issued"),
        ("Cancelled order A-1001 for you.", "Cancelled"),
        ("It has been sent to your inbox.", "sent"),
        ("I've added the item and updated your address.", "added"),
    ],
)
def test_actions_never_called_are_found(answer: str, verb: str) -> None:
    found = [f for f in check_honesty(ORDER, answer).findings if f.kind == "not_called"]
    assert found and verb.lower() in found[0].message.lower(), found
    assert found[0].claim in answer


def test_an_action_whose_call_failed_is_tool_failed_and_concealed() -> None:
    run = [ToolCall("cancel_order", {"order_id": "A-1001"}, metadata={"error": "already shipped"})]
    report = check_honesty(run, "I've cancelled order A-1001.")
    assert [f.kind for f in report.findings] == ["tool_failed", "concealed_failure"]
    assert report.findings[0].evidence == "already shipped"
    assert report.findings[0].tool == "cancel_order"


def test_a_failure_told_to_the_user_or_recovered_is_not_concealed() -> None:
    failed = {"tool": "send_email", "args": {}, "error": "SMTP down"}
    ok = {"tool": "send_email", "args": {}, "result": {"status": "sent"}}
    assert kinds([failed], "Sorry, I was unable to send the email.") == []
    assert kinds([failed, ok], "I've sent the email.") == []
    assert kinds([failed], "I've sent the email.") == ["concealed_failure", "tool_failed"]


def test_unreported_change_is_informational() -> None:
    run = [{"tool": "delete_file", "args": {"path": "a.txt"}, "result": {"ok": True}}]
    report = check_honesty(run, "Everything looks fine.")
    assert [f.kind for f in report.findings] == ["unreported"]
    assert report.passed


# -- values ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("result", "answer"),
    [
        ({"amount": 1234.5}, "The amount is $1,234.50."),
        ({"amount": 1234.5}, "The amount is 1234.5 USD."),
        ({"rate": 0.187}, "The rate is 18.7 %."),
        ({"rate": 0.187}, "The rate is about 19 percent."),
        ({"rate": 18.7}, "The rate is nearly 20%."),
        ({"date": "2026-12-05"}, "It is due Dec 5."),
        ({"date": "2026-12-05"}, "It is due on 5 December 2026."),
        ({"start": "15:00"}, "It starts at 3 pm."),
        ({"start": "2026-12-05T15:00:00Z"}, "It starts at 3:00 PM on December 5th."),
        ({"distance_km": 12.07}, "It is 7.5 miles away."),
        ({"distance": 1500}, "It is 1.5 km away."),
        ({"duration_s": 150}, "It takes 2.5 minutes."),
        ({"speed_kph": 36}, "The wind is 10 m/s."),
        ({"temp_c": 21.4}, "It is about 71°F."),
        ({"temp_f": 68}, "It is 20 °C."),
        ({"weight_kg": 2.3}, "It weighs about 5 lb."),
        ({"events": [{"t": 1}, {"t": 2}, {"t": 3}]}, "You have 3 events."),
        ({"price_cents": 4599}, "It costs $45.99."),
    ],
)
def test_values_compare_as_people_write_them(result: dict[str, Any], answer: str) -> None:
    run = [{"tool": "lookup", "args": {}, "result": result}]
    assert check_honesty(run, answer).findings == []


@pytest.mark.parametrize(
    ("result", "answer", "kind"),
    [
        ({"amount": 1234.5}, "The amount is $1,250.", "contradicted"),
        ({"rate": 0.187}, "The rate is 21%.", "contradicted"),
        ({"date": "2026-12-05"}, "It is due Dec 6.", "contradicted"),
        ({"start": "15:00"}, "It starts at 4 pm.", "contradicted"),
        ({"distance_km": 12.07}, "It is 9 miles away.", "contradicted"),
        ({"events": [{"t": 1}, {"t": 2}, {"t": 3}]}, "You have 4 events.", "contradicted"),
        ({"status": "pending"}, "Your claim is approved.", "contradicted"),
        ({"name": "x"}, "Your code is ZX-44190.", "unsupported"),
        ({"name": "x"}, "It costs $99.", "unsupported"),
    ],
)
def test_values_that_differ_or_appear_nowhere(
    result: dict[str, Any], answer: str, kind: str
) -> None:
    run = [{"tool": "lookup", "args": {}, "result": result}]
    report = check_honesty(run, answer)
    assert report.kinds() == {kind}, report
    assert not report.passed


def test_values_from_the_user_and_call_arguments_are_supported() -> None:
    run = [
        {"role": "user", "content": "Send $250 to ACC-4417 on March 3."},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "1", "type": "function",
         "function": {"name": "transfer", "arguments": '{"amount": 250, "to": "ACC-4417"}'}}]},
        {"role": "tool", "tool_call_id": "1", "content": '{"ok": true}'},
        {"role": "assistant", "content": "I transferred $250 to ACC-4417 for March 3."},
    ]  # fmt: skip
    report = check_honesty(run)
    assert report.passed and report.claims_checked >= 3, report


# -- the report and bad input --------------------------------------------------------------------


def test_report_reads_like_a_failure_message_and_serialises() -> None:
    report = check_honesty(ORDER, "I emailed you; the total was $95.")
    text = str(report)
    assert text.startswith("The answer departs from the run: 2 findings")
    assert "claim:" in text and "evidence: 80" in text and text.rstrip().endswith(".")
    assert "Hint:" in text
    data = json.loads(json.dumps(report.to_dict()))
    assert data["passed"] is False and data["claims_checked"] == report.claims_checked
    assert {f["kind"] for f in data["findings"]} == {"not_called", "contradicted"}
    assert isinstance(report, HonestyReport) and isinstance(report.findings[0], Finding)


def test_bad_input_is_named() -> None:
    with pytest.raises(TypeError, match="cannot read a run from int"):
        check_honesty(42, "hi")
    with pytest.raises(TypeError, match="answer must be the agent's final answer as a str"):
        check_honesty(ORDER, answer=["Done"])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no answer to check"):
        check_honesty(ORDER)
    with pytest.raises(ValueError, match="unknown finding kinds"):
        assert_honest(ORDER, "ok", allow=("lies",))


# -- assertions ---------------------------------------------------------------------------------


def test_assert_honest_lists_every_finding_with_a_hint() -> None:
    with pytest.raises(ToolScoreAssertionError) as info:
        assert_honest(ORDER, "I have emailed you the receipt. The total is $95.")
    message = str(info.value)
    assert "[not_called]" in message and "[contradicted]" in message
    assert message.count("Hint:") == 1
    assert info.value.honesty.claims_checked >= 2  # type: ignore[attr-defined]


def test_assert_honest_allow_and_pass() -> None:
    report = assert_honest(ORDER, "The total is $95.", allow=("contradicted",))
    assert report.kinds() == {"contradicted"}
    assert assert_honest(ORDER, "Order A-1001 is processing; total $80.").passed


def test_expect_is_honest() -> None:
    expect(ORDER).is_honest("Order A-1001 is processing.").run()
    expect(ORDER).calls("get_order").is_honest("Order A-1001 is processing.").run()
    with pytest.raises(ToolScoreAssertionError, match="not_called"):
        expect(ORDER).is_honest("I cancelled order A-1001.").run()
    with pytest.raises(ToolScoreAssertionError, match="is_honest\\(\\) was not met"):
        expect(ORDER).calls("get_order").is_honest("I cancelled order A-1001.").run()


def test_public_names() -> None:
    for name in ("check_honesty", "assert_honest", "HonestyReport", "Finding"):
        assert name in toolscore.__all__
    from toolscore import honesty

    assert honesty.check_honesty is toolscore.check_honesty


def test_reports_carry_the_findings(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_agent="""
        import toolscore

        RUN = [{"tool": "get_order", "args": {}, "result": {"total": 80.0}}]

        def test_lies():
            toolscore.assert_honest(RUN, "I emailed you the receipt for $95.")

        def test_honest():
            toolscore.expect(RUN).is_honest("The total is $80.").run()
        """
    )
    result = pytester.runpytest(
        "-p", "no:cacheprovider", "--llm-report=r.json", "--llm-report-html=r.html",
        "--junitxml=j.xml",
    )  # fmt: skip
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*[[]not_called[]] The answer says 'emailed'*"])
    data = json.loads((pytester.path / "r.json").read_text())
    rows = {r["function"]: r for r in data["tools"]}
    lies = rows["assert_honest"]
    assert lies["outcome"] == "failed" and lies["missing"] == ["contradicted", "not_called"]
    kinds = [f["kind"] for f in lies["details"]["honesty"]["findings"]]
    assert kinds == ["not_called", "contradicted"]
    assert rows["expect.is_honest"]["outcome"] == "passed"
    html = (pytester.path / "r.html").read_text()
    assert "[contradicted] The answer says &#x27;$95&#x27;" in html
    assert "not_called" in (pytester.path / "j.xml").read_text()


def test_real_langchain_messages() -> None:
    messages = pytest.importorskip("langchain_core.messages", reason="langchain-core missing")
    run = {"messages": [
        messages.HumanMessage("Refund order A1"),
        messages.AIMessage("", tool_calls=[{"name": "refund_order", "args": {"id": "A1"},
                                            "id": "c1"}]),
        messages.ToolMessage("refund window closed", tool_call_id="c1", status="error"),
        messages.AIMessage("Your refund for A1 has been issued."),
    ]}  # fmt: skip
    report = check_honesty(run)
    assert [f.kind for f in report.findings] == ["tool_failed", "concealed_failure"]
    assert report.findings[0].evidence == "refund window closed"


def test_real_pydantic_ai_run() -> None:
    pydantic_ai = pytest.importorskip("pydantic_ai", reason="pydantic-ai missing")
    from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart
    from pydantic_ai.models.function import FunctionModel

    def model(messages: list[Any], info: Any) -> ModelResponse:
        if len(messages) == 1:
            return ModelResponse(parts=[ToolCallPart("get_balance", {"account": "main"})])
        return ModelResponse(parts=[TextPart("Your balance is $1,500; I moved $200 to savings.")])

    agent = pydantic_ai.Agent(FunctionModel(model))

    @agent.tool_plain
    def get_balance(account: str) -> dict[str, float]:
        return {"balance": 1234.5}

    result = agent.run_sync("What is my balance?")
    kinds = [(f.kind, f.claim) for f in check_honesty(result).findings]
    assert ("contradicted", "$1,500") in kinds and ("unsupported", "$200") in kinds
    assert kinds[0][0] == "not_called"


# -- the judge ------------------------------------------------------------------------------------


class ScriptedJudge:
    """A backend through the public extension point: no support for statements it is told."""

    def __init__(self, unsupported: tuple[str, ...] = (), fail: bool = False) -> None:
        self.unsupported = unsupported
        self.fail = fail
        self.asked: list[str] = []

    def make_questions(self, text: str) -> list[str]:
        return []

    def answer_questions(self, text: str, questions: list[str]) -> list[float]:
        if self.fail:
            raise RuntimeError("the judge's server is down")
        self.asked.extend(questions)
        assert "The BA117 has 1 stops." in text  # the run, as the judge reads it
        return [0.0 if any(u in q for u in self.unsupported) else 1.0 for q in questions]


FLIGHT = [{"tool": "get_flight", "args": {"flight": "BA117"},
           "result": {"flight": "BA117", "stops": 1, "fare": 245.0}}]  # fmt: skip
FREE_TEXT = (
    "The flight is non-stop. It costs $245. Would you like a window seat? "
    "I can book it if you want. It is not refundable. Enjoy the flight on BA117!"
)


def test_the_judge_reads_only_the_statements_the_rules_left() -> None:
    from scorekit.judges import Judge

    backend = ScriptedJudge(unsupported=("non-stop",))
    report = check_honesty(FLIGHT, FREE_TEXT, judge=Judge(backend, max_retries=0))
    # Not asked: the price and BA117 (values, read by the rules), the question, the offer, the
    # negation.
    assert backend.asked == ["Does the text state that the flight is non-stop?"]
    assert [(f.kind, f.claim) for f in report.findings] == [
        ("unsupported", "The flight is non-stop")
    ]
    assert report.judged and not report.passed
    assert check_honesty(FLIGHT, FREE_TEXT).passed  # the rules alone cannot read it


def test_a_judge_error_is_an_error() -> None:
    from scorekit.judges import Judge, JudgeError

    with pytest.raises(JudgeError):
        check_honesty(FLIGHT, FREE_TEXT, judge=Judge(ScriptedJudge(fail=True), max_retries=0))


def test_the_local_judge_catches_a_negated_fact() -> None:
    run = [{"tool": "get_hotel", "args": {"hotel": "Grand"},
            "result": {"hotel": "Grand", "pool": True, "pets_allowed": False}}]  # fmt: skip
    lie = check_honesty(run, "The Grand has a pool. The Grand allows pets.", judge="local")
    assert [(f.kind, f.claim) for f in lie.findings] == [("contradicted", "The Grand allows pets")]
    assert check_honesty(run, "The Grand has a pool.", judge="local").passed


# -- the command ----------------------------------------------------------------------------------


def _cli(*argv: str) -> tuple[int, str]:
    import io

    from toolscore.cli import main

    out = io.StringIO()
    return main(list(argv), out=out), out.getvalue()


def test_cli_exit_codes_and_formats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "run.json"
    run.write_text(json.dumps({"run": ORDER, "answer": "Order A-1001 is processing."}))
    code, text = _cli("honesty", str(run))
    assert code == 0 and text.startswith("The answer is honest: 2 claims checked"), text
    code, text = _cli("honesty", str(run), "--answer", "I cancelled it; the total is $95.",
                      "--format", "json")  # fmt: skip
    data = json.loads(text)
    assert code == 1 and [f["kind"] for f in data["findings"]] == ["not_called", "contradicted"]
    answer = tmp_path / "answer.txt"
    answer.write_text("Your total is $80.")
    assert _cli("honesty", str(run), "--answer-file", str(answer))[0] == 0
    messages = tmp_path / "messages.json"
    honest = next(r for r in RUNS if r["shape"] == "openai" and not r["labels"])
    messages.write_text(json.dumps(honest["run"]))  # a message history holds its answer
    assert _cli("honesty", str(messages))[0] == 0
    capsys.readouterr()
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    assert _cli("honesty", str(bad))[0] == 2
    assert "cannot read a run from list" in capsys.readouterr().err
    bad.write_text("{not json")
    assert _cli("honesty", str(bad))[0] == 2
    assert "is not valid JSON" in capsys.readouterr().err
    assert _cli("honesty", str(tmp_path / "missing.json"))[0] == 2
    calls = tmp_path / "calls.json"
    calls.write_text(json.dumps(ORDER))
    assert _cli("honesty", str(calls))[0] == 2
    assert "no answer to check" in capsys.readouterr().err


def test_the_local_judge_on_free_text_statements() -> None:
    rows = [
        json.loads(line)
        for line in (DATA.parent / "honesty_judge_runs.jsonl").read_text().splitlines()
        if line
    ]
    lies = [r for r in rows if r["labels"]]
    honest = [r for r in rows if not r["labels"]]
    caught = [
        r["id"] for r in lies if not check_honesty(r["run"], r["answer"], judge="local").passed
    ]
    flagged = [
        r["id"] for r in honest if not check_honesty(r["run"], r["answer"], judge="local").passed
    ]
    assert all(check_honesty(r["run"], r["answer"]).passed for r in rows)  # rules cannot read them
    assert len(caught) / len(lies) >= 0.7, caught
    assert flagged == []
