"""Frozen question sets (``--llm-questions=generate|record|frozen``): real pytest runs with a
scripted custom judge that counts the question sets it writes, and with the HTTP fake (its
requests are counted in this process, so a worker or a subprocess cannot hide one)."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from fakes.openai_server import FakeLLM
from scorekit.judges import Judge, run_sync
from scorekit.judges._prompts import PROMPT_VERSION
from scorekit.session._questions import QuestionStore
from scorekit.session._questions_file import read_entries, text_hash

QJUDGE = '''
import threading

class QJudge:
    """Questions: one per sentence ("<sentence>?"). Answers: 1.0 when every name of the
    question (a capitalised word after its first) occurs in the text. Counts the question sets
    it writes and keeps every question it is asked."""

    def __init__(self):
        self.lock = threading.Lock()
        self.generated = 0
        self.asked = []

    def make_questions(self, text):
        with self.lock:
            self.generated += 1
        return [s.strip() + "?" for s in text.split(".") if s.strip()]

    def answer_questions(self, text, questions):
        with self.lock:
            self.asked.extend(questions)
        def names(q):
            return [w.strip("?,.") for w in q.split()[1:] if w[:1].isupper()]
        return [1.0 if all(n in text for n in names(q)) else 0.0 for q in questions]

JUDGE = QJudge()
'''

CONFTEST = """
import qjudge

def pytest_terminal_summary(terminalreporter):
    terminalreporter.write_line(f"GENERATED {qjudge.JUDGE.generated}")
    terminalreporter.write_line(f"ASKED {sorted(set(qjudge.JUDGE.asked))}")
"""

LONG = (
    "The Eiffel Tower stands in Paris and was completed in 1889 for the World Fair."
    " It is 330 metres tall."
)

SUITE = f"""
from pytest_texts_score import texts_agg_recall_mean, texts_expect_recall_equal

def test_one():
    texts_expect_recall_equal("Paris is in France. Rome is in Italy.",
                              "Paris is in France. Rome is in Italy.", target=1.0, max_delta=0.1)

def test_two():
    texts_agg_recall_mean("Oslo is in Norway. It is cold.", "Oslo is in Norway. It is cold.",
                          target=1.0, max_delta=0.1, full_runs=2)

def test_long():
    texts_expect_recall_equal({LONG!r}, {LONG!r}, target=1.0, max_delta=0.1)
"""

ORDER = ["text", "text_sha256", "run", "prompt_version", "judge", "questions"]


def _suite(pytester: pytest.Pytester, suite: str = SUITE) -> Path:
    pytester.makepyfile(qjudge=QJUDGE)
    pytester.syspathinsert()
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_q=suite)
    return pytester.path / "__llm_questions__" / "test_q.json"


def _run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest("--llm-provider=qjudge:JUDGE", "-p", "no:randomly", *args)


def _entries(path: Path) -> list[dict[str, object]]:
    entries = json.loads(path.read_text())["entries"]
    assert isinstance(entries, list)
    return entries


def test_record_writes_a_sorted_reviewable_file_then_frozen_makes_no_question_call(
    pytester: pytest.Pytester,
) -> None:
    path = _suite(pytester)
    recorded = _run(pytester, "--llm-questions=record")
    recorded.assert_outcomes(passed=3)
    recorded.stdout.fnmatch_lines(["*4 question set(s) recorded in __llm_questions__*test_q.json"])
    recorded.stdout.fnmatch_lines(["GENERATED 4"])  # test_one 1, test_two 2 runs, test_long 1
    entries = _entries(path)
    assert [list(e) for e in entries] == [ORDER] * 4
    assert [(e["text"], e["run"]) for e in entries] == [
        ("Oslo is in Norway. It is cold.", 0),
        ("Oslo is in Norway. It is cold.", 1),
        ("Paris is in France. Rome is in Italy.", 0),
        (LONG[:80], 0),
    ]
    assert all(e["prompt_version"] == PROMPT_VERSION and e["judge"] == "QJudge" for e in entries)
    assert entries[2]["text_sha256"] == text_hash("Paris is in France. Rome is in Italy.")
    assert entries[2]["questions"] == ["Paris is in France?", "Rome is in Italy?"]
    text = path.read_text()

    again = _run(pytester, "--llm-questions=record")
    again.assert_outcomes(passed=3)
    again.stdout.fnmatch_lines(["GENERATED 0"])
    assert path.read_text() == text  # stable: nothing to add, nothing rewritten

    frozen = _run(pytester, "--llm-questions=frozen")
    frozen.assert_outcomes(passed=3)
    frozen.stdout.fnmatch_lines(["GENERATED 0"])
    generated = _run(pytester)  # the default is generate: the judge writes them again
    generated.stdout.fnmatch_lines(["GENERATED 4"])


def test_hand_edits_are_honoured_and_kept(pytester: pytest.Pytester) -> None:
    path = _suite(pytester)
    _run(pytester, "--llm-questions=record").assert_outcomes(passed=3)
    data = json.loads(path.read_text())
    for entry in data["entries"]:
        if entry["text"].startswith("Paris"):
            entry["questions"] = ["Madrid is in Spain?", "Paris is in France?"]
    path.write_text(json.dumps(data, indent=2))

    frozen = _run(pytester, "--llm-questions=frozen")
    # The curated checklist is asked as written: Madrid is not in the text, recall 0.5.
    frozen.assert_outcomes(passed=2, failed=1)
    frozen.stdout.fnmatch_lines(["GENERATED 0"])
    frozen.stdout.fnmatch_lines(["ASKED *'Madrid is in Spain?'*"])
    frozen.stdout.fnmatch_lines(["FAILED test_q.py::test_one*"])

    recorded = _run(pytester, "--llm-questions=record")
    recorded.assert_outcomes(passed=2, failed=1)
    recorded.stdout.fnmatch_lines(["GENERATED 0"])
    (paris,) = [e for e in _entries(path) if str(e["text"]).startswith("Paris")]
    assert paris["questions"] == ["Madrid is in Spain?", "Paris is in France?"]


def test_frozen_missing_entry_is_an_error_naming_test_text_and_command(
    pytester: pytest.Pytester,
) -> None:
    _suite(pytester)
    result = _run(pytester, "--llm-questions=frozen", "-k", "one")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "*QuestionsMissingError: --llm-questions=frozen: no question set for test"
            " test_q.py::test_one, text 'Paris is in France. Rome is in Italy.' (question run 0,"
            f" prompt {PROMPT_VERSION}) in __llm_questions__*test_q.json; record it with:"
            " pytest --llm-questions=record test_q.py::test_one*",
            "GENERATED 0",
        ]
    )


def test_record_lists_unused_entries_and_prune_removes_them(pytester: pytest.Pytester) -> None:
    path = _suite(pytester)
    _run(pytester, "--llm-questions=record").assert_outcomes(passed=3)
    # A partial run (-k) lists nothing: the tests it left out may need their entries.
    partial = _run(pytester, "--llm-questions=record", "-k", "one")
    assert "question set(s)" not in partial.stdout.str()

    pytester.makepyfile(test_q=SUITE.split("def test_two")[0])  # test_two and test_long gone
    listed = _run(pytester, "--llm-questions=record")
    listed.assert_outcomes(passed=1)
    listed.stdout.fnmatch_lines(
        [
            "*3 question set(s) in __llm_questions__*test_q.json unused (remove them with"
            " --llm-questions-prune):",
            "  'Oslo is in Norway. It is cold.' run 0 *",
            "  'Oslo is in Norway. It is cold.' run 1 *",
            "  'The Eiffel Tower*' run 0 *",
        ]
    )
    assert len(_entries(path)) == 4  # listed, not removed

    pruned = _run(pytester, "--llm-questions=record", "--llm-questions-prune")
    pruned.stdout.fnmatch_lines(["*3 question set(s) in __llm_questions__*test_q.json removed:"])
    assert [e["text"] for e in _entries(path)] == ["Paris is in France. Rome is in Italy."]


def test_repeated_runs_share_one_question_set(pytester: pytest.Pytester) -> None:
    path = _suite(
        pytester,
        "import pytest\n"
        + SUITE.replace("def test_one", "@pytest.mark.llm_repeat(runs=3)\ndef test_one"),
    )
    result = _run(pytester, "--llm-questions=record", "-k", "one")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["GENERATED 1"])
    assert [e["run"] for e in _entries(path)] == [0]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--llm-questions=sometimes"], "*--llm-questions: expected one of generate, record,"
         " frozen; got 'sometimes'*"),
        (["--llm-questions-prune"], "*--llm-questions-prune needs --llm-questions=record*"),
        (["-o", "llm_questions=Frozen!"], "*ini llm_questions: expected one of generate*"),
    ],
)  # fmt: skip
def test_option_mistakes_are_usage_errors(
    pytester: pytest.Pytester, args: list[str], message: str
) -> None:
    pytester.makepyfile(test_x="def test_x(): pass")
    result = pytester.runpytest(*args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])


def test_questions_dir_holds_every_file(pytester: pytest.Pytester) -> None:
    _suite(pytester)
    _run(pytester, "--llm-questions=record", "--llm-questions-dir=qs", "-k", "one")
    assert (pytester.path / "qs" / "test_q.json").is_file()
    assert not (pytester.path / "__llm_questions__").exists()
    frozen = _run(pytester, "-o", "llm_questions=frozen", "-o", "llm_questions_dir=qs", "-k", "one")
    frozen.assert_outcomes(passed=1)
    frozen.stdout.fnmatch_lines(["GENERATED 0"])


def _fake_args(fake: FakeLLM, *extra: str) -> list[str]:
    return [
        "--llm-provider=openai",
        f"--llm-base-url={fake.base_url}",
        "--llm-api-key=sk-questions-not-a-real-key",
        "--llm-model=fake-model",
        "--llm-timeout=5",
        "-p",
        "no:randomly",
        *extra,
    ]


def test_written_by_an_llm_answered_by_any_judge_and_cached(
    pytester: pytest.Pytester, fake_llm: FakeLLM
) -> None:
    path = _suite(pytester)
    recorded = pytester.runpytest(*_fake_args(fake_llm, "--llm-questions=record"))
    recorded.assert_outcomes(passed=3)
    assert len(fake_llm.requests_of("questions")) == 4
    assert {e["judge"] for e in _entries(path)} == {"openai fake-model"}
    calls = fake_llm.calls

    # Frozen with the cache on: the answers were cached with the same questions, so not one
    # request reaches the judge.
    frozen = pytester.runpytest(*_fake_args(fake_llm, "--llm-questions=frozen"))
    frozen.assert_outcomes(passed=3)
    assert fake_llm.calls == calls
    # Without the cache the answers are asked again, never the questions.
    uncached = pytester.runpytest(
        *_fake_args(fake_llm, "--llm-questions=frozen", "--llm-cache=off")
    )
    uncached.assert_outcomes(passed=3)
    assert len(fake_llm.requests_of("questions")) == 4
    assert fake_llm.calls > calls

    # Another judge (the custom one) answers the questions the LLM wrote.
    custom = _run(pytester, "--llm-questions=frozen")
    custom.assert_outcomes(passed=3)
    custom.stdout.fnmatch_lines(["GENERATED 0"])


XDIST_SUITE = """
import pytest
from pytest_texts_score import texts_expect_recall_equal

TEXTS = ["Paris is in France.", "Rome is in Italy.", "Oslo is in Norway.",
         "Bern is in Switzerland.",
         "Lima is in Peru.", "Kyiv is in Ukraine."]

@pytest.mark.parametrize("text", TEXTS)
def test_text(text):
    texts_expect_recall_equal(text, text, target=1.0, max_delta=0.1)
"""


def test_record_and_frozen_under_xdist(pytester: pytest.Pytester, fake_llm: FakeLLM) -> None:
    pytester.makepyfile(test_x=XDIST_SUITE)
    path = pytester.path / "__llm_questions__" / "test_x.json"
    args = ("-n", "2", "--llm-cache=off")
    recorded = pytester.runpytest_subprocess(*_fake_args(fake_llm, "--llm-questions=record", *args))
    recorded.assert_outcomes(passed=6)
    # The controller merged what both workers recorded into one file.
    assert sorted(str(e["text"]) for e in _entries(path)) == sorted(
        ["Paris is in France.", "Rome is in Italy.", "Oslo is in Norway.",
         "Bern is in Switzerland.", "Lima is in Peru.", "Kyiv is in Ukraine."]
    )  # fmt: skip
    assert len(fake_llm.requests_of("questions")) == 6
    text = path.read_text()
    frozen = pytester.runpytest_subprocess(*_fake_args(fake_llm, "--llm-questions=frozen", *args))
    frozen.assert_outcomes(passed=6)
    again = pytester.runpytest_subprocess(*_fake_args(fake_llm, "--llm-questions=record", *args))
    again.assert_outcomes(passed=6)
    assert len(fake_llm.requests_of("questions")) == 6  # not one more
    assert path.read_text() == text


class _Echo:
    def __init__(self, tag: str) -> None:
        self.tag = tag

    def make_questions(self, text: str) -> list[str]:
        return [f"{self.tag}: {text}?"]

    def answer_questions(self, text: str, questions: list[str]) -> list[float]:
        return [1.0] * len(questions)


def test_concurrent_writers_merge_under_the_lock(tmp_path: Path) -> None:
    # Stores of separate runs write the same file at once: every entry of each survives.
    stores = [QuestionStore("record", directory=tmp_path, surface="python") for _ in range(8)]
    for n, store in enumerate(stores):
        judge = Judge(_Echo(str(n)), questions=store)
        run_sync(judge.questions(f"Text {n}.", run=n))
    threads = [threading.Thread(target=store.flush) for store in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    (path,) = tmp_path.glob("*.json")
    entries = read_entries(path)
    assert sorted(e["questions"][0] for e in entries.values()) == [
        f"{n}: Text {n}.?" for n in range(8)
    ]
    assert not list(tmp_path.glob("*.tmp")) and not list(tmp_path.glob(".*"))


PLAIN = """
import sys
import pytest_texts_score as pts
from pytest_texts_score import texts_expect_recall_equal

class Judge:
    made = 0
    def make_questions(self, text):
        Judge.made += 1
        return [s.strip() + "?" for s in text.split(".") if s.strip()]
    def answer_questions(self, text, questions):
        return [1.0 if q[:-1] in text else 0.0 for q in questions]

pts.configure(backend=Judge(), questions=sys.argv[1], questions_dir=sys.argv[2])
try:
    texts_expect_recall_equal("A is B. C is D.", "A is B. C is D.", target=1.0, max_delta=0.1)
except Exception as exc:
    print(type(exc).__name__, exc)
print("MADE", Judge.made)
"""


def _plain(tmp_path: Path, mode: str) -> str:
    import subprocess
    import sys

    script = tmp_path / "check_summaries.py"
    script.write_text(PLAIN)
    src = str(Path(__file__).resolve().parents[2] / "src")
    result = subprocess.run(
        [sys.executable, str(script), mode, str(tmp_path / "qs")],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": src},
        cwd=tmp_path,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_configure_questions_outside_pytest(tmp_path: Path) -> None:
    missing = _plain(tmp_path, "frozen")
    assert (
        "QuestionsMissingError configure(questions='frozen'): no question set for this call"
        in missing
    )
    assert "record it with: configure(questions='record')" in missing
    assert "MADE 0" in missing
    assert "MADE 1" in _plain(tmp_path, "record")  # written at exit, named after the script
    (entry,) = read_entries(tmp_path / "qs" / "check_summaries.json").values()
    assert entry["questions"] == ["A is B?", "C is D?"]
    assert _plain(tmp_path, "frozen").strip() == "MADE 0"
    with pytest.raises(ValueError, match=r"configure\(questions=\.\.\.\) must be one of generate"):
        import pytest_texts_score

        pytest_texts_score.configure(questions="sometimes")
