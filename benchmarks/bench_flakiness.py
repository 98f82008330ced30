"""Benchmark of borderline reruns (``--llm-max-runs``): verdict flips and judge calls.

A judge with known noise scores one aggregated assertion, ``texts_agg_recall_mean(...,
target=0.85, max_delta=0.15, full_runs=5)`` (pass when the mean recall is at least 0.7):

- each of 200 seeded sessions has a true recall ``mu``, in two scenarios: ``suite`` (80 % of
  the cases truly pass, ``mu - 0.7 ~ N(+0.14, 0.06)``, 20 % are truly broken,
  ``N(-0.12, 0.06)``: the bound lies between them and the tails of both reach it) and
  ``flat-at-bound`` (75 % clearly passing, ``+U(0.10, 0.25)``, 25 % spread evenly over
  ``0.7 ± 0.10``: the worst case, where no rule stopping at 20 runs can remove more than
  half of the flips, since flips there shrink only as ``1 / sqrt(runs)``);
- each question run's recall is ``mu + N(0, 0.08)`` clipped to [0, 1] (the noise level of one
  judged run), drawn from the session's seed, the replicate and the run index;
- every session is run twice (two identical runs of the suite, different judge noise); a flip
  is a session whose two verdicts differ.

It prints the flip rate and the mean judge calls per assertion with ``full_runs=5`` alone and
with ``--llm-max-runs 20`` (waves of 2, 4, 8... runs until the 95 % interval clears the bound).
Target: flips at least halved, mean calls at most 1.5x.

Run from the repository root::

    .venv/bin/python benchmarks/bench_flakiness.py [--sessions 200]
"""

from __future__ import annotations

import argparse
import random
import threading

from pytest_texts_score import texts_agg_recall_mean
from scorekit.judges import resolve_settings
from scorekit.session._session import ScoreSession

BOUND = 0.7
NOISE = 0.08
FULL_RUNS = 5
MAX_RUNS = 20


class NoisyJudge:
    """Question set n is one question ``q<n>``; its answer is ``mu + N(0, NOISE)``, clipped,
    from a generator seeded by (session, replicate, n): the same run always gets the same score
    whatever order the calls land in."""

    def __init__(self, mu: float, seed: int) -> None:
        self.mu = mu
        self.seed = seed
        self.calls = 0
        self._next = 0
        self._lock = threading.Lock()

    def make_questions(self, text: str) -> list[str]:
        with self._lock:
            n = self._next
            self._next += 1
            self.calls += 1
        return [f"q{n}"]

    def answer_questions(self, text: str, questions: list[str]) -> list[float]:
        with self._lock:
            self.calls += 1
        out = []
        for q in questions:
            rng = random.Random(f"{self.seed}:{q}")
            out.append(min(1.0, max(0.0, rng.gauss(self.mu, NOISE))))
        return out


def verdict(mu: float, seed: int, max_runs: int | None) -> tuple[bool, int]:
    """(passed, judge calls) of one assertion scored by a fresh noisy judge."""
    judge = NoisyJudge(mu, seed)
    session = ScoreSession(resolve_settings(env={}), backend=judge)
    session.max_runs = max_runs
    session.activate()
    try:
        texts_agg_recall_mean(
            "The fact.", "The fact.", target=0.85, max_delta=0.15, full_runs=FULL_RUNS
        )
        passed = True
    except AssertionError:
        passed = False
    finally:
        session.deactivate()
        session.close()
    return passed, judge.calls


def suite_score(rng: random.Random) -> float:
    """A suite: 80 % of the cases truly pass (``mu - bound ~ N(+0.14, 0.06)``), 20 % are
    truly broken (``N(-0.12, 0.06)``); the bound lies between them, and the tails reach it."""
    if rng.random() < 0.8:
        return BOUND + rng.gauss(0.14, 0.06)
    return BOUND + rng.gauss(-0.12, 0.06)


def near_score(rng: random.Random) -> float:
    """The worst case: 75 % clearly passing (``+U(0.10, 0.25)``), 25 % spread evenly over
    ``bound ± 0.10``. With the density flat at the bound, no rule that stops at 20 runs can do
    better than ``sqrt(5 / 20)`` = 0.5 of the flips."""
    if rng.random() < 0.75:
        return BOUND + rng.uniform(0.10, 0.25)
    return BOUND + rng.uniform(-0.10, 0.10)


SCENARIOS = {"suite": suite_score, "flat-at-bound": near_score}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=200)
    args = parser.parse_args()
    n = args.sessions
    print(f"{n} seeded sessions x 2 identical runs; bound {BOUND}, noise sd {NOISE} per run")
    for scenario, draw in SCENARIOS.items():
        rng = random.Random(22)
        mus = [draw(rng) for _ in range(n)]
        results: dict[str, tuple[int, int]] = {}
        for label, max_runs in (("full_runs=5", None), (f"--llm-max-runs {MAX_RUNS}", MAX_RUNS)):
            flips = calls = 0
            for i, mu in enumerate(mus):
                a, calls_a = verdict(mu, 2 * i, max_runs)
                b, calls_b = verdict(mu, 2 * i + 1, max_runs)
                flips += a != b
                calls += calls_a + calls_b
            results[label] = (flips, calls)
        base_flips, base_calls = results["full_runs=5"]
        print(f"scenario {scenario}:")
        for label, (flips, calls) in results.items():
            print(
                f"  {label:<20} flips {flips:>4}/{n} = {100 * flips / n:5.1f} %"
                f"   mean judge calls {calls / (2 * n):6.2f}   ({calls / base_calls:.2f}x)"
            )
        flips, calls = results[f"--llm-max-runs {MAX_RUNS}"]
        ratio = flips / base_flips if base_flips else float("nan")
        halved = flips * 2 <= base_flips
        cheap = calls <= 1.5 * base_calls
        print(
            f"  flips ratio {ratio:.2f}; target (flips at least halved, mean calls at most"
            f" 1.5x): {'met' if halved and cheap else 'NOT met'}"
        )


if __name__ == "__main__":
    main()
