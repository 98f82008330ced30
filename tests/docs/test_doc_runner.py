"""The docs runner itself: a page's commands are one terminal session, files land where it is,
background servers are awaited and stopped, and the repository is never written through a link.

Each test runs a small page written here with the runner of ``test_docs_examples.py``.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from doc_blocks import read_blocks
from test_docs_examples import ROOT, _run_page

FENCE = "```"


def _page(tmp_path: Path, text: str) -> Path:
    page = tmp_path / "page.md"
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text(text.replace("~~~", FENCE), encoding="utf-8")
    return page


def _run(tmp_path: Path, text: str) -> int:
    return _run_page(_page(tmp_path, text), tmp_path / "run")


def test_cd_and_export_carry_over_to_later_commands_files_and_python(tmp_path: Path) -> None:
    ran = _run(
        tmp_path,
        """
~~~console
$ mkdir -p project/sub && cd project
$ export GREETING="hello there"
$ (cd sub && pwd) | sed 's|.*/||'
sub
$ pwd | sed 's|.*/||'; echo "$GREETING"
project
hello there
~~~

~~~text title="note.txt"
written where the session is
~~~

~~~python
import os
from pathlib import Path

print(Path.cwd().name, os.environ["GREETING"], Path("note.txt").read_text().strip())
~~~

~~~output
project hello there written where the session is
~~~
""",
    )
    assert ran == 2  # the console block and the Python block


def test_a_failed_command_keeps_the_session_where_it_was(tmp_path: Path) -> None:
    _run(
        tmp_path,
        """
~~~console
$ cd no-such-folder; echo "exit $?"
...
exit 1
$ ls -d examples
examples
~~~
""",
    )


def test_a_background_command_is_awaited_then_stopped_with_the_page(tmp_path: Path) -> None:
    pid_file = tmp_path / "server.pid"
    _run(
        tmp_path,
        f"""
~~~python title="server.py"
import os, time

open({str(pid_file)!r}, "w").write(str(os.getpid()))
time.sleep(0.5)
print("ready on 127.0.0.1:8000", flush=True)
time.sleep(600)
~~~

~~~console
$ python server.py &
ready on 127.0.0.1:...
$ echo next
next
~~~
""",
    )
    pid = int(pid_file.read_text())
    deadline = time.monotonic() + 10
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(pid), "the background server outlived its page"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is gone in all but name.
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().split()[2] == "Z")


def test_a_background_command_that_ends_without_its_output_fails_the_page(tmp_path: Path) -> None:
    with pytest.raises(pytest.fail.Exception, match=r"(?s)`python -c .*&`.*\+crashed"):
        _run(
            tmp_path,
            """
~~~console
$ python -c "print('crashed')" &
ready
~~~
""",
        )


def test_a_title_in_a_linked_folder_shows_the_repository_file(tmp_path: Path) -> None:
    suite = ROOT / "examples" / "bfcl" / "bfcl_suite.py"
    before = suite.read_bytes()
    same = suite.read_text(encoding="utf-8")
    _run(tmp_path / "a", f'~~~python title="examples/bfcl/bfcl_suite.py"\n{same}~~~\n')
    changed = same.replace("def my_agent", "def your_agent")
    with pytest.raises(pytest.fail.Exception, match=r"(?s)otherwise than.*-def your_agent"):
        _run(tmp_path / "b", f'~~~python title="examples/bfcl/bfcl_suite.py"\n{changed}~~~\n')
    assert suite.read_bytes() == before  # never written through the link


def test_a_bare_pytest_collects_the_page_tests_only_and_ci_is_unset(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CI", "true")
    monkeypatch.setenv("TOOLSCORE_SNAPSHOT_DIR", "/elsewhere")
    _run(
        tmp_path,
        """
~~~python title="test_page.py"
import os


def test_runs_as_on_a_developer_machine():
    assert "CI" not in os.environ and "TOOLSCORE_SNAPSHOT_DIR" not in os.environ
~~~

~~~console
$ pytest -q
.   ...   [100%]
1 passed in ...s
~~~
""",
    )


@pytest.mark.parametrize(
    "between", ["Some prose.\n", "~~~text\nanother block\n~~~\n"], ids=["prose", "block"]
)
def test_shown_output_that_no_block_owns_is_an_error(tmp_path: Path, between: str) -> None:
    page = _page(tmp_path, f"~~~python\nprint(1)\n~~~\n\n{between}\n~~~output\n2\n~~~\n")
    with pytest.raises(ValueError, match=r"page.md:\d+: an ```output block must follow"):
        read_blocks(page)
    # Right after its block (blank lines only), it is that block's output.
    page = _page(tmp_path, "~~~python\nprint(1)\n~~~\n\n\n~~~output\n1\n~~~\n")
    (block,) = [b for b in read_blocks(page) if b.language == "python"]
    assert block.output is not None and block.output.code == "1\n"
