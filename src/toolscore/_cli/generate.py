"""``toolscore generate``: gold test cases from OpenAI-style function definitions."""

from __future__ import annotations

import argparse
from collections import Counter
from typing import Any, TextIO

from scorekit.cli import whole_number
from toolscore._cli.common import EXIT_OK, CommandError

__all__ = ["register"]


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add ``generate`` to the ``toolscore`` command."""
    p = sub.add_parser(
        "generate",
        help="generate gold test cases from function schemas",
        description="Generate gold test cases from OpenAI-style function definitions: typical "
        "values, and the smallest and largest values each schema allows. Every generated "
        "argument satisfies its schema, and the same seed gives the same file.",
    )
    p.add_argument(
        "--from-openai",
        required=True,
        metavar="PATH",
        help='JSON file of function definitions (a list, OpenAI tool entries, or {"tools": [...]})',
    )
    p.add_argument(
        "--count", "-n", type=whole_number(1), default=10, help="cases per function (default 10)"
    )
    p.add_argument(
        "--output", "-o", default="gold_calls.json", help="where to write (default gold_calls.json)"
    )
    p.add_argument(
        "--no-edge-cases", action="store_true", help="only typical values (no boundary or edge)"
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the random values (default 0)")
    p.add_argument("--verbose", "-v", action="store_true", help="list every generated case")
    p.set_defaults(run=_run)


def _run(args: argparse.Namespace, out: TextIO) -> int:
    from toolscore._engine.score.render import format_call
    from toolscore.generators.synthetic import generate_from_openai_schema, save_gold_standard

    try:
        cases = generate_from_openai_schema(
            args.from_openai, args.count, not args.no_edge_cases, seed=args.seed
        )
    except FileNotFoundError:
        raise CommandError(f"{args.from_openai}: no such file") from None
    except ValueError as exc:
        raise CommandError(f"{args.from_openai}: {exc}") from None
    path = save_gold_standard(cases, args.output)
    kinds = Counter(case["metadata"]["variation"] for case in cases)
    functions = len({case["tool"] for case in cases})
    split = ", ".join(f"{kinds[k]} {k}" for k in ("normal", "boundary", "edge") if kinds[k])
    out.write(
        f"Generated {len(cases)} test case(s) for {functions} function(s) ({split}) in {path}.\n"
    )
    if args.verbose:
        for i, case in enumerate(cases, 1):
            variation = case["metadata"]["variation"]
            out.write(f"  {i}. [{variation}] {format_call(case['tool'], case['args'])}\n")
    out.write(
        "Next: record your agent's calls for these cases in a trace file, then run: "
        f"toolscore eval {path} trace.json\n"
    )
    return EXIT_OK
