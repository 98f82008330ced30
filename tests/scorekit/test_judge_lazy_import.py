"""The judge layer loads the openai SDK on first use of an LLM judge, not on import."""

from __future__ import annotations

import subprocess
import sys


def test_importing_the_judge_layer_does_not_import_openai() -> None:
    code = (
        "import sys\n"
        "import scorekit.judges, scorekit.judges._factory, scorekit.judges._openai\n"
        "from scorekit.judges import resolve_settings\n"
        "resolve_settings(env={})\n"
        "print('openai' in sys.modules, 'httpx' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.split() == ["False", "False"]


def test_importing_toolscore_does_not_start_asyncio() -> None:
    # `evaluate()` needs only the garbage-collector pause of scorekit.runtime; its event-loop
    # thread (asyncio, ssl, sockets) loads when a judge or an MCP client first needs it.
    code = (
        "import sys\n"
        "import toolscore\n"
        "print('asyncio' in sys.modules)\n"
        "from scorekit.runtime import run_sync\n"
        "print('asyncio' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.split() == ["False", "True"]
