"""The shared argparse number types, through a parser as the commands use them."""

from __future__ import annotations

import argparse

import pytest

from scorekit.cli._arg_types import unit_interval, whole_number

RANGE = "argument --min-mean: expected a number between 0 and 1, got "


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cmd", exit_on_error=False)
    parser.add_argument("--min-mean", type=unit_interval)
    parser.add_argument("--workers", type=whole_number(1))
    return parser


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--min-mean", "high"], "argument --min-mean: expected a number, got 'high'"),
        (["--min-mean", "nan"], RANGE + "nan"),
        (
            ["--min-mean", "-0.1"],
            RANGE + "-0.1",
        ),
        (["--workers", "2.5"], "argument --workers: expected a whole number, got '2.5'"),
        (["--workers", "0"], "argument --workers: expected a whole number >= 1, got 0"),
    ],
)
def test_a_bad_value_names_the_option_once(argv: list[str], message: str) -> None:
    with pytest.raises(argparse.ArgumentError) as info:
        _parser().parse_args(argv)
    assert str(info.value) == message


def test_good_values_including_both_ends() -> None:
    args = _parser().parse_args(["--min-mean", "1", "--workers", "1"])
    assert (args.min_mean, args.workers) == (1.0, 1)
    assert _parser().parse_args(["--min-mean", "0"]).min_mean == 0.0
