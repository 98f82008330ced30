"""No import circles among the modules of ``src/``, counted as a newcomer reads them.

Every import statement counts: top-level, inside functions, under ``TYPE_CHECKING``, relative,
and ``importlib.import_module("...")`` with a literal name. ``lint-imports`` (pyproject's
``[tool.importlinter]``) checks the layers; this test names any circle, layered or not.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"


def modules(root: Path) -> dict[str, tuple[Path, bool]]:
    """``{dotted name: (file, is package)}`` of every module under ``root``."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        package = parts[-1] == "__init__"
        out[".".join(parts[:-1] if package else parts)] = (path, package)
    return out


def _imported_names(tree: ast.AST, package: str) -> Iterator[str]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            yield name
            # `from pkg import mod` imports the module pkg.mod.
            yield from (f"{name}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            first = node.args[0]
            if called == "import_module" and isinstance(first, ast.Constant):
                yield str(first.value)


def import_graph(known: Mapping[str, tuple[Path, bool]]) -> dict[str, set[str]]:
    """Module -> the modules of ``known`` it imports (the nearest known parent of a name)."""
    graph: dict[str, set[str]] = {}
    for name, (path, is_package) in known.items():
        package = name if is_package else name.rpartition(".")[0]
        targets = set()
        for imported in _imported_names(ast.parse(path.read_text(encoding="utf-8")), package):
            while imported and imported not in known:
                imported = imported.rpartition(".")[0]
            if imported and imported != name:
                targets.add(imported)
        graph[name] = targets
    return graph


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """One circle per strongly connected group of modules (Tarjan, iterative), each as a path
    ``a -> b -> ... -> a`` through the group."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(_circle(sorted(group), graph))
    return groups


def _circle(group: list[str], graph: Mapping[str, set[str]]) -> list[str]:
    """A shortest path from the group's first module back to itself, inside the group."""
    members, first = set(group), group[0]
    previous: dict[str, str] = {}
    frontier = [first]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(graph[node] & members):
                if child == first:
                    path = [node]
                    while path[-1] != first:
                        path.append(previous[path[-1]])
                    return [first, *reversed(path[:-1]), first]
                if child not in previous:
                    previous[child] = node
                    following.append(child)
        frontier = following
    raise AssertionError(f"no circle through {first}")  # pragma: no cover


def test_the_walk_sees_function_level_and_type_only_imports(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "low.py").write_text("def f():\n    from pkg import high\n")
    (pkg / "high.py").write_text("from typing import TYPE_CHECKING\nfrom . import mid\n")
    (pkg / "mid.py").write_text("if TYPE_CHECKING:\n    import pkg.low\n")
    (pkg / "alone.py").write_text("import importlib\nimportlib.import_module('pkg.low')\n")
    graph = import_graph(modules(tmp_path))
    assert graph["pkg.alone"] == {"pkg.low"}
    assert cycles(graph) == [["pkg.high", "pkg.mid", "pkg.low", "pkg.high"]]


def test_src_has_no_import_circle() -> None:
    found = cycles(import_graph(modules(SRC)))
    assert not found, "import circles in src/ (a lower module must not import an upper one):\n" + (
        "\n".join("  " + " -> ".join(circle) for circle in found)
    )
