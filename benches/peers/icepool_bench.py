#!/usr/bin/env python3
"""Times Python's icepool on the exact queries of the `peers` criterion bench.

The workloads, named as the criterion groups `peers/<workload>` so that `table.py` can pair
them:

- exact_100d6:                 100 @ d6                  (the law of the sum of 100d6)
- exact_20d10_drop_lowest_10:  d10.lowest(20, drop=10)   (20d10, the 10 lowest dropped)
- exact_100d6_drop_lowest_10:  d6.lowest(100, drop=10)   (100d6, the 10 lowest dropped)
- exact_100d100_keep_highest_50: d100.highest(100, 50)   (100d100, the 50 highest kept)
- exact_blocking_40v40_d6:     BLOCKING.evaluate(d6.pool(40), d6.pool(40))  (40d6 hitting on
  anything against 40d6 blocking on >=: the unblocked hits, dice-core's `Blocking`; the
  evaluator below, which walks the outcomes from the highest and keeps the Hall statistic
  max(0, max_t (H_t - D_t)))

The last two are where icepool with its cache warm was ahead of dicepool (issue 20); a cold
call of each takes minutes, so run them with `--repeats 1` (`--only` selects them).

Each query is timed with `timeit` (one call per repeat, `--repeats` repeats, default 7) and
reported as the median and the minimum. icepool memoizes aggressively, so every repeat starts
cold: the untimed `setup` of each repeat

- builds a fresh `Die` (`Die(range(1, n + 1))`, not the shared `icepool.d6`), so the per-die
  `_sum_cache` and the die's other `cached_property` values start empty;
- calls `icepool.Pool.clear_cache()` (the global `PoolSource._new_raw` `functools.cache`);
- deletes `_cache` (the memoized "dungeons", which hold each evaluation's ascending and
  descending state tables) from every multiset evaluator alive, found through `gc`;
- empties `icepool.math.comb_row_cache` (memoized rows of binomial coefficients).

Without that, a repeated query answers from the caches; the warm time (the same query on the
same die, right after a cold one) is reported too, as `warm_s`, for information only.

Each result is checked (its denominator is sides ** dice, its support as expected) before it
is timed. Writes JSON (default: `$CARGO_TARGET_DIR/peers/icepool.json`, or
`<workspace>/target/peers/icepool.json`), and prints it.

Usage: python3 benches/peers/icepool_bench.py [--repeats N] [--out PATH] [--only WORKLOAD]
Requires icepool (`pip install -r benches/peers/requirements.txt`).
"""

import argparse
import gc
import json
import os
import platform
import statistics
import sys
import time
import timeit
from pathlib import Path

import icepool
from icepool.evaluator.multiset_evaluator_base import MultisetEvaluatorBase

WORKSPACE = Path(__file__).resolve().parents[2]


class Blocking(icepool.MultisetEvaluator):
    """Die-against-die blocking: the first multiset attacks (every die a hit), the second
    blocks (a die blocks a hit of lesser or equal value), the outcome the hits left unblocked:
    by Hall's theorem max(0, max_t (H_t - D_t)) over the outcomes t, with H_t and D_t the
    dice of each side showing t or more."""

    def initial_state(self, order, outcomes, *sizes):
        if order != icepool.Order.Descending:
            raise icepool.UnsupportedOrder()
        return (0, 0)  # (H - D so far, the largest it has been)

    def next_state(self, state, order, outcome, attack, defense):
        diff, worst = state
        diff += attack - defense
        return (diff, max(worst, diff))

    def final_outcome(self, final_state, order, outcomes, *sizes):
        return max(0, final_state[1])


# One evaluator for every call, as a user would keep it (its memo is what "warm" reuses;
# clear_caches() empties it before each cold repeat).
BLOCKING = Blocking()


def die(sides):
    """A fresh die with faces 1..=sides (not the shared, memoizing `icepool.d6`)."""
    return icepool.Die(range(1, sides + 1))


# workload -> (query as written, sides, the query on a die with that many sides, dice,
# lowest outcome, highest outcome)
WORKLOADS = {
    "exact_100d6": ("100 @ d6", 6, lambda d: 100 @ d, 100, 100, 600),
    "exact_20d10_drop_lowest_10": (
        "d10.lowest(20, drop=10)",
        10,
        lambda d: d.lowest(20, drop=10),
        20,
        10,
        100,
    ),
    "exact_100d6_drop_lowest_10": (
        "d6.lowest(100, drop=10)",
        6,
        lambda d: d.lowest(100, drop=10),
        100,
        90,
        540,
    ),
    "exact_100d100_keep_highest_50": (
        "d100.highest(100, 50)",
        100,
        lambda d: d.highest(100, 50),
        100,
        50,
        5000,
    ),
    "exact_blocking_40v40_d6": (
        "BLOCKING.evaluate(d6.pool(40), d6.pool(40))",
        6,
        lambda d: BLOCKING.evaluate(d.pool(40), d.pool(40)),
        80,
        0,
        40,
    ),
}


def clear_caches():
    """Forgets everything icepool memoized, so the next query starts cold."""
    icepool.Pool.clear_cache()
    icepool.math.comb_row_cache.clear()
    for obj in gc.get_objects():
        if isinstance(obj, MultisetEvaluatorBase) and "_cache" in vars(obj):
            del obj._cache
    gc.collect()


def check(name, result, sides, dice, lo, hi):
    assert result.denominator() == sides**dice, f"{name}: denominator"
    assert result.min_outcome() == lo and result.max_outcome() == hi, f"{name}: support"
    assert len(result) == hi - lo + 1, f"{name}: every total from {lo} to {hi}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--only", action="append", choices=sorted(WORKLOADS))
    args = parser.parse_args()
    if args.out is None:
        target = Path(os.environ.get("CARGO_TARGET_DIR", WORKSPACE / "target"))
        args.out = target / "peers" / "icepool.json"

    results = {}
    for name, (text, sides, query, dice, lo, hi) in WORKLOADS.items():
        if args.only and name not in args.only:
            continue
        clear_caches()
        d = die(sides)
        check(name, query(d), sides, dice, lo, hi)
        start = time.perf_counter()
        query(d)  # warm: the same die again, answered from what the checked call memoized
        warm = time.perf_counter() - start

        fresh = {}

        def setup(sides=sides, fresh=fresh):
            clear_caches()
            fresh["die"] = die(sides)

        def stmt(query=query, fresh=fresh):
            return query(fresh["die"])

        times = timeit.Timer(stmt, setup=setup).repeat(repeat=args.repeats, number=1)
        results[name] = {
            "query": text,
            "median_s": statistics.median(times),
            "min_s": min(times),
            "times_s": times,
            "warm_s": warm,
        }
        print(f"{name}: median {statistics.median(times):.4g} s, min {min(times):.4g} s, "
              f"warm {warm:.3g} s", file=sys.stderr)

    report = {
        "tool": "icepool",
        "icepool_version": icepool.__version__,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "repeats": args.repeats,
        "timer": "timeit, number=1 per repeat, caches cleared in setup",
        "results": results,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
