"""``toolscore eval-dataset`` keeps pyarrow from importing pandas (0.45 s of CPU) in its own
process; a caller's process is left as it is."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest
from datasets import run_script

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("pandas") is None, reason="pandas is not installed here"
)

CALLS = [{"tool": "search", "args": {"q": "x"}}, {"tool": "open", "args": {"n": 1}}]

COMMAND = """\
import sys
from toolscore.cli import main

if __name__ == "__main__":
    code = main(sys.argv[1:])
    print("pandas imported" if "pandas" in sys.modules else "pandas not imported")
    sys.exit(code)
"""

REFUSED = """\
import sys
from scorekit.batch._no_pandas import pandas_refused

with pandas_refused() as refused:
    try:
        import pandas
    except ModuleNotFoundError as exc:
        print("refused:", refused, exc.name)
import pandas
print("after:", pandas.__name__)
"""


def _rows(path: Path, n: int) -> Path:
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            actual = CALLS[: i % 3]
            fh.write(json.dumps({"id": str(i), "expected": CALLS, "actual": actual}) + "\n")
    return path


def test_the_command_writes_parquet_without_importing_pandas(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    source = _rows(tmp_path / "rows.jsonl", 3000)
    out = tmp_path / "out.parquet"
    argv = ["eval-dataset", str(source), "-o", str(out), "--workers", "2"]
    result = run_script(tmp_path / "command.py", COMMAND, *argv, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("pandas not imported")
    table = pq.read_table(out)
    assert table.num_rows == 3000
    scores = table.column("score").to_pylist()
    assert len(set(scores)) == 3 and max(scores) == 1.0


def test_refused_only_within_the_block(tmp_path: Path) -> None:
    result = run_script(tmp_path / "refused.py", REFUSED)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["refused: True pandas", "after: pandas"]


def test_already_imported_pandas_is_not_refused() -> None:
    import pandas  # noqa: F401

    from scorekit.batch._no_pandas import pandas_refused

    with pandas_refused() as refused:
        assert refused is False
        assert importlib.import_module("pandas") is sys.modules["pandas"]
