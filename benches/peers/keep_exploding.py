#!/usr/bin/env python3
"""icepool's exact laws of keep/drop on pools whose explosions add dice, for comparison with
dice-core's (`Sum::distribution` on a pool with `Explode::new`, issue 17).

icepool's `Die.explode_to_pool(n, outcomes, depth=d)` lets each die explode at most `d` times:
that is dice-core's explicit cap `d` (`!cap d` in the notation), so capped cases must agree to
rounding. With a large depth, icepool's law is the untruncated one up to the chance that some
die explodes more than `d` times (at most n·p^(d+1)), which dice-core lists without a cap.

Each case prints one JSON line: the dice-core notation, the icepool depth, and the law
(outcome -> probability, from icepool's exact fractions).

With `--dice PATH` (the `dice` command, e.g. target/release/dice), each case is also asked of
`dice odds EXPR --json` and the largest absolute difference per case and overall is printed.

Usage: python3 benches/peers/keep_exploding.py [--dice PATH] [--depth D]
Requires icepool (`pip install -r benches/peers/requirements.txt`).
"""

import argparse
import json
import subprocess
import sys

import icepool

# (count, sides, lowest exploding face, keep rule, k, cap or None)
CASES = [
    (5, 6, 6, "kh", 3, None),
    (10, 10, 10, "kh", 5, None),
    (3, 10, 9, "kl", 2, None),
    (4, 6, 6, "dl", 1, None),
    (2, 8, 7, "dh", 1, None),
    (6, 4, 4, "kh", 2, None),
    (2, 20, 20, "kl", 1, None),
    (5, 6, 6, "kh", 3, 3),
    (4, 6, 5, "dl", 1, 2),
    (3, 10, 9, "kl", 2, 4),
    (6, 3, 3, "dh", 2, 5),
]


def notation(count, sides, on, keep, k, cap):
    test = "" if on == sides else f">={on}"
    capped = "" if cap is None else f"cap{cap}"
    return f"{count}d{sides}!{test}{capped}{keep}{k}"


def icepool_law(count, sides, on, keep, k, cap, depth):
    die = icepool.Die(range(1, sides + 1))
    pool = die.explode_to_pool(count, lambda x: x >= on, depth=cap if cap is not None else depth)
    if keep == "kh":
        law = pool.highest(k).sum()
    elif keep == "kl":
        law = pool.lowest(k).sum()
    elif keep == "dh":
        law = pool.highest(drop=k).sum()
    elif keep == "dl":
        law = pool.lowest(drop=k).sum()
    else:
        raise ValueError(keep)
    total = law.denominator()
    return {int(o): q / total for o, q in law.items()}


def ours(dice, expr):
    out = subprocess.run(
        [dice, "odds", expr, "--json"], check=True, capture_output=True, text=True
    ).stdout
    report = json.loads(out)
    return {int(r["outcome"]): float(r["probability"]) for r in report["distribution"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dice", help="the `dice` command, to compare with")
    ap.add_argument("--depth", type=int, default=30, help="icepool depth for uncapped cases")
    args = ap.parse_args()
    worst = 0.0
    for case in CASES:
        expr = notation(*case)
        cap = case[-1]
        depth = cap if cap is not None else args.depth
        law = icepool_law(*case, args.depth)
        line = {"expr": expr, "depth": depth, "law": law}
        if args.dice:
            mine = ours(args.dice, expr)
            diff = max(abs(law.get(o, 0.0) - mine.get(o, 0.0)) for o in set(law) | set(mine))
            worst = max(worst, diff)
            line["max_abs_diff"] = diff
        print(json.dumps(line))
    if args.dice:
        print(f"largest absolute difference: {worst:.3e}", file=sys.stderr)


if __name__ == "__main__":
    main()
