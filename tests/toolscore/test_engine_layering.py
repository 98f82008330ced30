"""``toolscore._engine`` sits below the public modules: it imports nothing of toolscore's from
outside itself, and the public modules re-export its objects (issue 23, item 4).

Every import statement counts: top-level, inside functions, under ``TYPE_CHECKING``, relative,
and ``importlib.import_module("...")`` / ``__import__("...")`` with a literal name.
"""

from __future__ import annotations

import ast
import importlib
import pickle
import pkgutil
from pathlib import Path

import pytest

import toolscore._engine

# Imports of toolscore modules outside ``_engine`` that ``_engine`` may make, each with the
# reason it is allowed: ``{(engine module, imported module): reason}``. None today; an entry
# added here must say why the code cannot move below the public layer.
ALLOWED: dict[tuple[str, str], str] = {}

ENGINE_DIR = Path(toolscore._engine.__file__).parent

# Public module -> the engine module(s) holding its implementation (moved in issue 23). A public
# module may gather several engine modules: the engine is cut by stage and idea (issue 36), so
# ``toolscore.matchers`` takes the pure matchers from ``compare/`` and ``Semantic`` from ``judge/``.
REEXPORTS: dict[str, str | tuple[str, ...]] = {
    "toolscore.metrics.efficiency": "toolscore._engine.score.metrics.efficiency",
    "toolscore.metrics.security": "toolscore._engine.score.metrics.secrets",
    "toolscore.metrics.sequence": "toolscore._engine.score.metrics.sequence",
    "toolscore.metrics.trajectory": "toolscore._engine.score.metrics.steps",
    "toolscore.metrics.policy": "toolscore._engine.score.metrics.policy",
    "toolscore.metrics.tool_correctness": "toolscore._engine.score.metrics.correctness",
    "toolscore.metrics.llm_judge": (
        "toolscore._engine.judge.config",
        "toolscore._engine.judge.evaluation",
    ),
    "toolscore.metrics.side_effects": "toolscore._engine.score.metrics.side_effects",
    "toolscore.metrics.cost": "toolscore._engine.score.metrics.cost",
    "toolscore.matchers": (
        "toolscore._engine.compare.matchers",
        "toolscore._engine.judge.semantic",
    ),
    "toolscore.adapters.base": "toolscore._engine.read.tool_call",
    "toolscore.verdict": "toolscore._engine.score.grades",
    "toolscore.snapshots": (
        "toolscore._engine.snapshots.store",
        "toolscore._engine.snapshots.states",
    ),
    "toolscore.validators.schema": "toolscore._engine.score.validators.schema",
    "toolscore.validators.database": "toolscore._engine.score.validators.database",
    "toolscore.validators.filesystem": "toolscore._engine.score.validators.filesystem",
    "toolscore.validators.http": "toolscore._engine.score.validators.http",
    "toolscore.integrations": (
        "toolscore._engine.read.providers",
        "toolscore._engine.read.shapes",
        "toolscore._engine.read.streams",
    ),
}


def _engine_modules() -> list[str]:
    names = ["toolscore._engine"]
    for info in pkgutil.walk_packages([str(ENGINE_DIR)], prefix="toolscore._engine."):
        names.append(info.name)
    return sorted(names)


def _source(module: str) -> tuple[Path, bool]:
    rel = module.removeprefix("toolscore._engine").lstrip(".").replace(".", "/")
    path = ENGINE_DIR / rel if rel else ENGINE_DIR
    if path.is_dir():
        return path / "__init__.py", True
    return path.with_suffix(".py"), False


def imported_modules(source: str, module: str, is_package: bool) -> list[tuple[int, str]]:
    """``(line, absolute module name)`` of every import in ``source`` (the text of ``module``)."""
    package = module if is_package else module.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                name = f"{base}.{node.module}" if node.module else base
            else:
                name = node.module or ""
            found.append((node.lineno, name))
            # `from toolscore import metrics` imports toolscore.metrics, not just toolscore.
            found += [(node.lineno, f"{name}.{alias.name}") for alias in node.names]
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called in ("import_module", "__import__") and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    found.append((node.lineno, first.value))
    return found


def upward_imports(source: str, module: str, is_package: bool = False) -> list[str]:
    """The imports of toolscore modules outside ``_engine`` in ``source``, as ``line: name``."""
    out = []
    for line, name in imported_modules(source, module, is_package):
        top = name == "toolscore" or name.startswith("toolscore.")
        inside = name == "toolscore._engine" or name.startswith("toolscore._engine.")
        if top and not inside and (module, name) not in ALLOWED:
            out.append(f"{line}: {name}")
    return out


def test_the_walk_sees_every_kind_of_import() -> None:
    source = (
        "import os\n"
        "from toolscore._engine.read.inputs import read_calls\n"
        "from . import compare\n"
        "from ..metrics import cost\n"
        "if TYPE_CHECKING:\n"
        "    from toolscore.adapters.base import ToolCall\n"
        "def f():\n"
        "    import toolscore.integrations as integrations\n"
        "    from toolscore import metrics\n"
        "    importlib.import_module('toolscore.snapshots')\n"
    )
    assert upward_imports(source, "toolscore._engine.x") == [
        "4: toolscore.metrics",
        "4: toolscore.metrics.cost",
        "6: toolscore.adapters.base",
        "6: toolscore.adapters.base.ToolCall",
        "8: toolscore.integrations",
        "9: toolscore",
        "9: toolscore.metrics",
        "10: toolscore.snapshots",
    ]


def test_the_walk_covers_the_whole_package() -> None:
    files = set()
    for path in ENGINE_DIR.rglob("*.py"):
        rel = path.relative_to(ENGINE_DIR).with_suffix("")
        parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
        files.add(".".join(("toolscore._engine", *parts)))
    assert set(_engine_modules()) == files


@pytest.mark.parametrize("module", _engine_modules())
def test_engine_module_imports_nothing_above_it(module: str) -> None:
    path, is_package = _source(module)
    found = upward_imports(path.read_text(encoding="utf-8"), module, is_package)
    assert not found, f"{module} imports toolscore modules outside _engine: {found}"


def test_every_allowed_exception_has_a_reason_and_is_still_needed() -> None:
    for (module, imported), reason in ALLOWED.items():
        assert reason.strip(), (module, imported)
        path, is_package = _source(module)
        names = [n for _, n in imported_modules(path.read_text(), module, is_package)]
        assert imported in names, f"{module} no longer imports {imported}: drop the exception"


@pytest.mark.parametrize("public", sorted(REEXPORTS))
def test_public_modules_re_export_the_engine_objects(public: str) -> None:
    pub = importlib.import_module(public)
    homes = REEXPORTS[public]
    engines = [importlib.import_module(m) for m in ((homes,) if isinstance(homes, str) else homes)]
    names = getattr(pub, "__all__", None) or [n for n in vars(pub) if not n.startswith("_")]
    assert names
    for name in names:
        found = [e for e in engines if getattr(e, name, None) is getattr(pub, name)]
        assert found, f"{public}.{name} is none of {[e.__name__ for e in engines]}'s objects"


def test_re_exported_objects_pickle_to_the_same_classes() -> None:
    import toolscore
    from toolscore.adapters.base import ToolCall
    from toolscore.metrics.llm_judge import JudgeConfig
    from toolscore.snapshots import Snapshot
    from toolscore.verdict import FixSuggestion

    objects = [
        toolscore.Regex(r"a+"),
        toolscore.OneOf([1, 2]) & toolscore.IsType(int),
        toolscore.Approx(1.0),
        ToolCall("search", {"q": "x"}),
        JudgeConfig(model="m"),
        Snapshot("t", [{"tool": "a", "args": {}}]),
        FixSuggestion("search", "never called", "offer it", 0),
    ]
    for obj in objects:
        back = pickle.loads(pickle.dumps(obj))
        assert type(back) is type(obj)
        assert repr(back) == repr(obj)
    assert toolscore.Regex is toolscore._engine.compare.matchers.Regex
    assert ToolCall is toolscore._engine.read.tool_call.ToolCall
    assert toolscore.SnapshotStore is toolscore._engine.snapshots.store.SnapshotStore
