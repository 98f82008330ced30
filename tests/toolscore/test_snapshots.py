"""toolscore.snapshots: the store, the file format, the state machine, matchers in snapshots."""

from __future__ import annotations

import hashlib
import json
import os
import re
import warnings
from datetime import date
from pathlib import Path

import pytest

from toolscore import ANY, Approx, IsType, OneOf, Regex, ToolScoreAssertionError
from toolscore.snapshots import (
    DEFAULT_ROOT,
    SCHEMA_VERSION,
    Snapshot,
    SnapshotStore,
    SnapshotWarning,
    snapshot_check,
)

CALLS = [
    {"tool": "search_flights", "args": {"to": "NYC", "date": "2025-01-01"}},
    {"tool": "book", "args": {"id": 7}},
]


@pytest.fixture(autouse=True)
def _not_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)


@pytest.fixture
def store(tmp_path: Path) -> SnapshotStore:
    return SnapshotStore(tmp_path / "snaps")


def _check(store: SnapshotStore, calls: object, **kw: object) -> tuple[object, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = snapshot_check("t", calls, store=store, **kw)  # type: ignore[arg-type]
    return result, [str(w.message) for w in caught if issubclass(w.category, SnapshotWarning)]


# --- file names and layout -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "stem"),
    [
        # Worked out by hand from Toolscore 1.10's rule: "::" and unsafe characters -> "__",
        # leading/trailing dots stripped, first 100 characters, "-" + sha1(name)[:8].
        ("tests/test_agent.py::test_booking", "tests__test_agent.py__test_booking"),
        ("../../evil", "__..__evil"),
        ("test_x[param-1]", "test_x__param-1__"),
        ("a b", "a__b"),
        ("...", "snapshot"),
    ],
)
def test_file_names_follow_toolscore(store: SnapshotStore, name: str, stem: str) -> None:
    digest = hashlib.sha1(name.encode()).hexdigest()[:8]
    path = store.path_for(name)
    assert path.name == f"{stem}-{digest}.json"
    assert path.parent == store.root  # no name escapes the folder


def test_long_names_are_cut_to_a_safe_length(store: SnapshotStore) -> None:
    ascii_name = "x" * 300
    assert store.path_for(ascii_name).name.startswith("x" * 100 + "-")
    wide = store.path_for("é" * 300).name  # two bytes per character
    assert len(wide.encode()) <= 255
    assert store.path_for("é" * 300) != store.path_for("é" * 299)


def test_defaults() -> None:
    assert DEFAULT_ROOT == ".toolscore/snapshots"
    assert SCHEMA_VERSION == 1
    assert SnapshotStore().root == Path(".toolscore/snapshots")


def test_the_file_is_canonical_sorted_json(store: SnapshotStore) -> None:
    snap = Snapshot(
        "t",
        [{"tool": "get_weather", "args": {"unit": "C", "city": Regex("NYC|JFK"), "days": []}}],
        created_at="2025-01-01T00:00:00+00:00",
        toolscore_version="9.9",
    )
    path = store.save(snap)
    text = path.read_text(encoding="utf-8")
    data = json.loads(text)
    assert text == (
        "{\n"
        '  "approved": false,\n'
        '  "calls": [\n'
        "    {\n"
        '      "args": {\n'
        '        "city": {"$regex": "NYC|JFK"},\n'
        '        "days": [],\n'
        '        "unit": "C"\n'
        "      },\n"
        '      "tool": "get_weather"\n'
        "    }\n"
        "  ],\n"
        '  "created_at": "2025-01-01T00:00:00+00:00",\n'
        '  "name": "t",\n'
        '  "schema_version": 1,\n'
        '  "source": "pytest",\n'
        f'  "toolscore_version": {json.dumps(data["toolscore_version"])},\n'
        f'  "updated_at": {json.dumps(data["updated_at"])}\n'
        "}\n"
    )


def test_unicode_is_written_as_is(store: SnapshotStore) -> None:
    path = store.save(Snapshot("t", [{"tool": "say", "args": {"text": "Grüße 東京"}}]))
    assert "Grüße 東京" in path.read_text(encoding="utf-8")


def test_saving_unchanged_content_leaves_the_file_alone(store: SnapshotStore) -> None:
    snap = Snapshot("t", CALLS, updated_at="2000-01-01T00:00:00+00:00")
    path = store.save(snap)
    first = path.read_bytes()
    stamp = snap.updated_at
    os.utime(path, (1, 1))
    again = store.load("t")
    assert again is not None
    store.save(again)
    assert path.read_bytes() == first and path.stat().st_mtime == 1
    assert again.updated_at == stamp
    again.calls = [{"tool": "book", "args": {"id": 8}}]
    store.save(again)
    assert path.read_bytes() != first and again.updated_at != "2000-01-01T00:00:00+00:00"


def test_a_failed_write_keeps_the_old_file(
    store: SnapshotStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = store.save(Snapshot("t", CALLS, approved=True))
    before = path.read_bytes()

    def broken_replace(src: object, dst: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk full"):
        store.save(Snapshot("t", [{"tool": "other", "args": {}}]))
    assert path.read_bytes() == before
    assert sorted(p.name for p in store.root.iterdir()) == [path.name]  # no temp file left


def test_values_json_cannot_hold_are_refused_before_writing(store: SnapshotStore) -> None:
    path = store.save(Snapshot("t", CALLS, approved=True))
    before = path.read_bytes()
    bad = [{"tool": "book", "args": {"when": {"day": date(2025, 1, 1)}}}]
    with pytest.raises(ValueError, match=r"Cannot save snapshot 't': calls\[0\]\.args\.when\.day"):
        store.save(Snapshot("t", bad))
    assert path.read_bytes() == before
    with pytest.raises(ValueError, match="nan"):
        store.save(Snapshot("u", [{"tool": "x", "args": {"v": float("nan")}}]))
    assert not store.exists("u")


def test_a_toolscore_1_10_file_is_read(store: SnapshotStore) -> None:
    # The layout Toolscore 1.10 writes: its key order, indent 2, "args" always present.
    store.root.mkdir(parents=True)
    store.path_for("legacy").write_text(
        json.dumps(
            {
                "schema_version": 1,
                "name": "legacy",
                "created_at": "2025-05-01T10:00:00.123456+00:00",
                "updated_at": "2025-05-01T10:00:00.123456+00:00",
                "toolscore_version": "1.10.0",
                "approved": True,
                "source": "pytest",
                "calls": CALLS,
            },
            indent=2,
        )
    )
    snap = store.load("legacy")
    assert snap is not None and snap.approved and snap.calls == CALLS
    assert snapshot_check("legacy", CALLS, store=store).score == 1.0  # type: ignore[union-attr]


def test_matchers_round_trip_through_the_file(store: SnapshotStore) -> None:
    args = {
        "city": Regex("nyc|jfk", re.IGNORECASE),
        "date": ANY,
        "temp": Approx(20.0, abs=0.5),
        "unit": OneOf("C", "F"),
        "days": IsType(int) & ~OneOf(0),
        "query": {"$eq": 1},  # a plain value with a "$" key stays data
    }
    store.save(Snapshot("t", [{"tool": "w", "args": args}], approved=True))
    text = store.path_for("t").read_text()
    assert '"city": {"$regex": "nyc|jfk", "flags": "i"}' in text
    assert '"date": {"$any": true}' in text
    assert '"query": {"$literal": {"$eq": 1}}' in text
    loaded = store.load("t")
    assert loaded is not None
    assert repr(loaded.calls[0]["args"]["days"]) == "IsType(int) & ~OneOf(0)"
    actual = [
        {
            "tool": "w",
            "args": {
                "city": "JFK",
                "date": "2031-12-24",
                "temp": 20.4,
                "unit": "F",
                "days": 3,
                "query": {"$eq": 1},
            },
        }
    ]
    assert snapshot_check("t", actual, store=store).score == 1.0  # type: ignore[union-attr]


def test_custom_matchers_cannot_be_saved(store: SnapshotStore) -> None:
    from toolscore import Matcher

    class Even(Matcher):
        def matches(self, value: object) -> bool:
            return isinstance(value, int) and value % 2 == 0

    with pytest.raises(ValueError, match="custom matcher"):
        store.save(Snapshot("t", [{"tool": "x", "args": {"n": Even()}}]))


def test_corrupt_files(store: SnapshotStore) -> None:
    store.save(Snapshot("good", CALLS))
    store.path_for("bad").write_text("{not json")
    with pytest.raises(ValueError, match=r"Corrupt snapshot file at .*bad"):
        store.load("bad")
    with pytest.warns(SnapshotWarning, match="skipped: Corrupt snapshot file"):
        names = [s.name for s in store.list()]
    assert names == ["good"]
    store.path_for("odd").write_text(
        '{"name": "odd", "calls": [{"tool": "x", "args": {"$nope": 1}}]}'
    )
    with pytest.raises(ValueError, match=r"Corrupt snapshot file.*unknown matcher key '\$nope'"):
        store.load("odd")


def test_store_bookkeeping(store: SnapshotStore) -> None:
    assert store.list() == [] and store.pending() == []
    assert not store.root.exists()  # nothing is created before a save
    store.save(Snapshot("b", CALLS))
    store.save(Snapshot("a", CALLS, approved=True))
    assert [s.name for s in store.list()] == ["a", "b"]
    assert [s.name for s in store.pending()] == ["b"]
    assert store.exists("a") and not store.exists("c")
    with pytest.raises(KeyError, match="No snapshot named 'c'"):
        store.approve("c")
    assert store.approve("b").approved
    store.delete("a")
    store.delete("never-there")
    assert [s.name for s in store.list()] == ["b"]


# --- the state machine -----------------------------------------------------------------------


def test_record_approve_check_change_update(store: SnapshotStore) -> None:
    result, said = _check(store, CALLS)
    assert result is None and said and "created with 2 call(s), pending approval" in said[0]
    assert store.load("t").approved is False  # type: ignore[union-attr]

    result, said = _check(store, CALLS)  # still pending: a warning, no verdict
    assert result is None and "pending approval" in said[0]

    store.approve("t")
    result, said = _check(store, CALLS)
    assert said == [] and result.score == 1.0  # type: ignore[attr-defined]

    changed = [{"tool": "search_flights", "args": {"to": "Boston", "date": "2025-01-01"}}]
    changed.append(CALLS[1])
    with pytest.raises(ToolScoreAssertionError) as info:
        _check(store, changed)
    text = str(info.value)
    assert text.startswith("Tool calls drifted from the approved snapshot 't': score 0.90")
    assert '-      "to": "NYC"' in text and '+      "to": "Boston"' in text
    assert '"date"' in text  # unchanged lines appear only as context, without - or +
    assert '-      "date"' not in text and '+      "date"' not in text
    assert text.splitlines()[-1].startswith("Hint: If the new calls are right, accept them")
    assert info.value.result is not None and info.value.min_score == 1.0

    # The change waits beside the approved file; the approved file is untouched.
    assert store.load("t").calls == CALLS  # type: ignore[union-attr]
    assert [s.calls for s in store.pending()] == [changed]
    with pytest.raises(ToolScoreAssertionError):  # a pending change keeps failing
        _check(store, changed)

    store.approve("t")
    assert store.load("t").calls == changed  # type: ignore[union-attr]
    assert not store.change_path_for("t").exists()
    result, _ = _check(store, changed)
    assert result.score == 1.0  # type: ignore[attr-defined]

    result, said = _check(store, CALLS, update=True)
    assert result is None and "updated and approved" in said[0]
    assert store.load("t").calls == CALLS  # type: ignore[union-attr]


def test_a_passing_run_discards_a_stale_change(store: SnapshotStore) -> None:
    store.save(Snapshot("t", CALLS, approved=True))
    with pytest.raises(ToolScoreAssertionError):
        _check(store, CALLS[:1])
    assert store.change_path_for("t").exists()
    _check(store, CALLS)
    assert not store.change_path_for("t").exists()


def test_re_recording_keeps_matchers_that_still_match(store: SnapshotStore) -> None:
    approved = [
        {
            "tool": "search",
            "args": {
                "q": "flights",
                "date": ANY,
                "filters": {"max_price": Approx(300, rel=0.1), "airline": "KLM"},
            },
        },
        {"tool": "log"},  # arguments not checked
    ]
    store.save(Snapshot("t", approved, approved=True))
    now = [
        {
            "tool": "search",
            "args": {
                "q": "cheap flights",
                "date": "2026-02-02",
                "filters": {"max_price": 310, "airline": "SAS"},
            },
        },
        {"tool": "log", "args": {"level": "debug"}},
        {"tool": "book", "args": {"id": 1}},
    ]
    _check(store, now, update=True)
    calls = store.load("t").calls  # type: ignore[union-attr]
    assert calls[0]["args"]["date"] is ANY
    assert repr(calls[0]["args"]["filters"]["max_price"]) == "Approx(300, rel=0.1)"
    assert calls[0]["args"]["filters"]["airline"] == "SAS"
    assert calls[0]["args"]["q"] == "cheap flights"
    assert calls[1] == {"tool": "log", "args": None}
    assert calls[2] == {"tool": "book", "args": {"id": 1}}
    assert '{"tool": "log"' not in store.path_for("t").read_text()  # "args" left out: unchecked


def test_a_changed_pending_recording_is_refreshed(store: SnapshotStore) -> None:
    _check(store, CALLS)
    _, said = _check(store, CALLS[:1])
    assert "re-recorded" in said[0]
    assert store.load("t").calls == CALLS[:1]  # type: ignore[union-attr]


def test_min_score_below_one_tolerates_drift(store: SnapshotStore) -> None:
    store.save(Snapshot("t", CALLS, approved=True))
    result, _ = _check(store, [*CALLS[:1], {"tool": "book", "args": {"id": 8}}], min_score=0.8)
    assert 0.8 <= result.score < 1.0  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="min_score"):
        _check(store, CALLS, min_score=1.5)


def test_provider_responses_are_read(store: SnapshotStore) -> None:
    response = {
        "content": [
            {"type": "tool_use", "id": "t1", "name": "book", "input": {"id": 7}},
        ]
    }
    _check(store, response)
    assert store.load("t").calls == [{"tool": "book", "args": {"id": 7}}]  # type: ignore[union-attr]


@pytest.mark.parametrize("ci", ["true", "1"])
def test_ci_never_records(store: SnapshotStore, monkeypatch: pytest.MonkeyPatch, ci: str) -> None:
    monkeypatch.setenv("CI", ci)
    with pytest.raises(ToolScoreAssertionError, match="does not exist, and snapshots cannot be"):
        _check(store, CALLS)
    assert not store.root.exists()
    result, said = _check(store, CALLS, allow_pending=True)
    assert result is None and "created" in said[0]
    with pytest.raises(ToolScoreAssertionError, match="is pending approval") as info:
        _check(store, CALLS[:1])
    assert '-    "tool": "book"' in str(info.value)  # the diff of what was recorded
    store.approve("t")
    with pytest.raises(ToolScoreAssertionError, match="re-record the snapshot locally"):
        _check(store, CALLS[:1])
    assert not store.change_path_for("t").exists()  # CI writes no pending change


def test_ci_false_is_not_ci(store: SnapshotStore, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "false")
    assert _check(store, CALLS)[0] is None and store.exists("t")


def test_default_store_is_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.warns(SnapshotWarning):
        snapshot_check("here", CALLS)
    assert (tmp_path / ".toolscore" / "snapshots").is_dir()


def test_the_warning_is_a_user_warning_outside_pytest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The docs promise a UserWarning: a script's warning filters for UserWarning must apply.
    monkeypatch.chdir(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        with pytest.raises(UserWarning, match=r"snapshot 'here' created with 2 call\(s\)"):
            snapshot_check("here", CALLS)


def test_top_level_names() -> None:
    import toolscore
    import toolscore.snapshots as module

    for name in ("Snapshot", "SnapshotStore", "snapshot_check"):
        assert name in toolscore.__all__ and getattr(toolscore, name) is getattr(module, name)
    assert Snapshot("x").toolscore_version == toolscore.__version__


def test_update_without_changes_is_a_quiet_replay(store: SnapshotStore) -> None:
    path = store.save(Snapshot("t", [{"tool": "book", "args": {"id": ANY}}], approved=True))
    before = path.read_bytes()
    result, said = _check(store, [{"tool": "book", "args": {"id": 7}}], update=True)
    assert said == [] and result.score == 1.0  # type: ignore[attr-defined]
    assert path.read_bytes() == before
    _, said = _check(store, [{"tool": "book", "args": {"id": 7, "x": 1}}], update=True)
    assert "updated and approved" in said[0]
    assert store.load("t").calls == [{"tool": "book", "args": {"id": ANY, "x": 1}}]  # type: ignore[union-attr]


def test_calls_are_read_like_evaluate_reads_them(store: SnapshotStore) -> None:
    from toolscore.adapters.base import ToolCall

    _check(store, [ToolCall("book", {"id": 7}, result="ok"), {"tool": "log", "id": "c2"}])
    assert store.load("t").calls == [  # type: ignore[union-attr]
        {"tool": "book", "args": {"id": 7}},
        {"tool": "log", "args": {}},  # an actual call without arguments passed none
    ]
    # a Toolscore 1.10 file may keep more of a call than its tool and arguments
    store.path_for("old").write_text(
        json.dumps(
            {"name": "old", "approved": True, "calls": [{"tool": "a", "args": {}, "id": "x"}]}
        )
    )
    assert store.load("old").calls == [{"tool": "a", "args": {}}]  # type: ignore[union-attr]
