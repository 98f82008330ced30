"""The ray engine on a local 2-CPU Ray cluster started here: the same per-row results as the
local engine, from JSON lines and from Parquet, for tool calls and for texts."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from datasets import results, tool_row, tool_rows, write_jsonl, write_parquet
from scripted_judge import SentenceJudge, pair_rows

import pytest_texts_score as pts
import toolscore
from scorekit.batch import _ray
from scorekit.batch._readers import line_ranges
from scorekit.batch._sources import resolve_source
from scorekit.judges import resolve_settings
from scorekit.session._session import ScoreSession

pytest.importorskip("pyarrow")
ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'llm-scorekit[ray]')")

HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def cluster() -> Iterator[None]:
    try:
        ray.init(
            num_cpus=2,
            include_dashboard=False,
            log_to_driver=False,
            # Ray workers import the tests' judge module, as a user's workers import theirs.
            runtime_env={"env_vars": {"PYTHONPATH": str(HERE)}},
        )
    except Exception as exc:  # no shared memory, no free ports: Ray cannot start here
        pytest.skip(f"Ray cannot start on this machine: {exc}")
    try:
        yield
    finally:
        ray.shutdown()


def _both(tmp_path: Path, source: Path, **kwargs: Any) -> tuple[list[Any], list[Any]]:
    local = tmp_path / f"{source.stem}-local.parquet"
    remote = tmp_path / f"{source.stem}-ray.parquet"
    a = toolscore.evaluate_dataset(source, output=local, workers=2, progress=False, **kwargs)
    b = toolscore.evaluate_dataset(
        source, output=remote, engine="ray", workers=2, progress=False, **kwargs
    )
    assert a.to_dict()["scores"] == b.to_dict()["scores"]
    assert (b.engine, b.workers) == ("ray", 2)
    return results(local), results(remote)


def test_tool_rows_from_json_lines_score_the_same_on_ray(cluster: None, tmp_path: Path) -> None:
    rows: list[Any] = [*tool_rows(300), "{not json", {"id": "x", "expected": []}]
    local, remote = _both(tmp_path, write_jsonl(tmp_path / "traces.jsonl", rows), batch_size=64)
    assert len(remote) == 302
    assert remote == local
    assert [r["row"] for r in remote] == list(range(302))
    assert remote[300]["error_kind"] == "bad_json" and remote[301]["error_kind"] == "missing_column"


def test_a_file_cut_into_many_byte_ranges_scores_as_the_local_engine_reads_it(
    cluster: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Ranges of a few hundred bytes: every boundary falls inside some line, blank lines and
    # CRLF endings among them, and the last line has no newline.
    monkeypatch.setattr(_ray, "_RANGE_LEAST", 300)
    monkeypatch.setattr(_ray, "_RANGE_MOST", 700)
    lines = [json.dumps(row).encode() for row in tool_rows(120)]
    lines[50:50] = [b"", b"{not json", b"  \r"]
    source = tmp_path / "cut.jsonl"
    source.write_bytes(b"\r\n".join(lines[:70]) + b"\n" + b"\n".join(lines[70:]))
    assert len(line_ranges(resolve_source(source).files[0], 8, most=700, least=300)) > 20

    local, remote = _both(tmp_path, source, batch_size=16)
    assert remote == local and len(remote) == 121
    assert [r["row"] for r in remote] == list(range(121))
    assert remote[50]["error_kind"] == "bad_json"


def test_files_that_cannot_be_cut_score_the_same_on_ray(cluster: None, tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    rows = tool_rows(90)
    with gzip.open(folder / "a.jsonl.gz", "wt", encoding="utf-8") as fh:
        fh.writelines(json.dumps(row) + "\n" for row in rows[:30])
    (folder / "b.json").write_text(json.dumps(rows[30:60]), encoding="utf-8")  # one array
    write_jsonl(folder / "c.jsonl", rows[60:])

    local, remote = _both(tmp_path, folder, batch_size=8)
    assert remote == local and len(remote) == 90
    assert [r["id"] for r in remote] == [row["id"] for row in rows]


def test_tool_rows_from_parquet_score_the_same_on_ray(cluster: None, tmp_path: Path) -> None:
    rows = [tool_row(i) for i in range(200)]
    local, remote = _both(tmp_path, write_parquet(tmp_path / "t.parquet", rows, as_text=True))
    assert remote == local and len(remote) == 200


def test_ray_resume_skips_what_the_output_holds(cluster: None, tmp_path: Path) -> None:
    source = write_jsonl(tmp_path / "t.jsonl", tool_rows(40))
    out = tmp_path / "out.jsonl"
    toolscore.evaluate_dataset(tool_rows(25), output=out, workers=1, progress=False)
    summary = toolscore.evaluate_dataset(
        source, output=out, resume=True, engine="ray", workers=2, progress=False
    )
    assert (summary.resumed, summary.new_rows) == (25, 15)
    assert [r["id"] for r in results(out)] == [f"t{i}" for i in range(40)]


def test_text_pairs_score_the_same_on_ray(cluster: None, tmp_path: Path) -> None:
    session = ScoreSession(resolve_settings(env={}), backend=SentenceJudge())
    session.activate()
    try:
        source = write_jsonl(tmp_path / "pairs.jsonl", pair_rows(20))
        local = pts.evaluate_dataset(source, output=tmp_path / "a.jsonl", workers=1, progress=False)
        remote = pts.evaluate_dataset(
            source, output=tmp_path / "b.jsonl", engine="ray", workers=2, progress=False
        )
    finally:
        session.deactivate()
        session.close()
    assert results(tmp_path / "a.jsonl") == results(tmp_path / "b.jsonl")
    assert remote.judge is not None and remote.judge["calls"] == local.judge["calls"] == 80  # type: ignore[index]
