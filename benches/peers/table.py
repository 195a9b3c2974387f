#!/usr/bin/env python3
"""Prints the `peers` comparison as one Markdown table: dicepool against its peers.

Reads criterion's results for the groups `peers/<workload>` (each function's
`new/benchmark.json` and the median point estimate of `new/estimates.json`) under
`<target>/criterion`, and the JSON written by `icepool_bench.py` (its median), then prints,
per workload: dicepool's median (dice-core used directly), dice-notation's median, and each
peer's median with the ratio **dicepool ÷ peer** (below 1: dicepool is faster), followed in
parentheses by dice-notation ÷ peer. A ratio above 1 (dicepool slower) is printed in bold.

Ratios are taken within one run of one machine; compare ratios across machines, not times.

Usage: python3 benches/peers/table.py [TARGET_DIR] [--icepool PATH]
TARGET_DIR defaults to $CARGO_TARGET_DIR, else the workspace's `target`; the icepool JSON
defaults to TARGET_DIR/peers/icepool.json and is left out if missing. Standard library only.
"""

import argparse
import json
import os
import sys
from pathlib import Path

WORKSPACE = Path(__file__).resolve().parents[2]
GROUP_PREFIX = "peers/"
OURS = "dicepool"
NOTATION = "dicepool-notation"
# Peers in column order; any other function found is appended after these.
PEERS = ["tyche", "tyche-xoshiro", "caith", "xdy", "icepool"]
# Workloads in row order; any other group found is appended after these.
WORKLOADS = [
    "roll_1d20",
    "roll_4d6_keep_3",
    "roll_10d10_explode_10",
    "roll_10d10_explode_10_count_ge8",
    "exact_100d6",
    "exact_20d10_drop_lowest_10",
    "exact_100d6_drop_lowest_10",
    "exact_100d100_keep_highest_50",
    "exact_blocking_40v40_d6",
]


def criterion_medians(criterion_dir):
    """{workload: {function: median in ns}} for every `peers/` group under criterion_dir."""
    medians = {}
    for meta in sorted(criterion_dir.glob("**/new/benchmark.json")):
        bench = json.loads(meta.read_text())
        group = bench.get("group_id", "")
        if not group.startswith(GROUP_PREFIX):
            continue
        estimates = json.loads((meta.parent / "estimates.json").read_text())
        workload = group[len(GROUP_PREFIX):]
        medians.setdefault(workload, {})[bench["function_id"]] = estimates["median"][
            "point_estimate"
        ]
    return medians


def icepool_medians(path):
    """{workload: {"icepool": median in ns}} from icepool_bench.py's JSON."""
    report = json.loads(path.read_text())
    return {
        workload: {"icepool": result["median_s"] * 1e9}
        for workload, result in report["results"].items()
    }


def fmt_time(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def fmt_ratio(r):
    text = f"{r:.3g}" if r >= 0.01 else f"{r:.2g}"
    return f"**{text}**" if r > 1 else text


def ordered(found, preferred):
    return [x for x in preferred if x in found] + sorted(set(found) - set(preferred))


def table(medians):
    peers = ordered({f for row in medians.values() for f in row} - {OURS, NOTATION}, PEERS)
    head = ["workload", OURS, NOTATION]
    for peer in peers:
        head += [peer, f"÷ {peer}"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for workload in ordered(medians, WORKLOADS):
        row = medians[workload]
        ours, notation = row.get(OURS), row.get(NOTATION)
        cells = [f"`{workload}`"]
        cells += [fmt_time(t) if t is not None else "—" for t in (ours, notation)]
        for peer in peers:
            theirs = row.get(peer)
            if theirs is None:
                cells += ["—", "—"]
                continue
            ratio = fmt_ratio(ours / theirs) if ours is not None else "—"
            if notation is not None:
                ratio += f" ({fmt_ratio(notation / theirs)})"
            cells += [fmt_time(theirs), ratio]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("target", nargs="?", type=Path)
    parser.add_argument("--icepool", type=Path)
    args = parser.parse_args()
    target = args.target or Path(os.environ.get("CARGO_TARGET_DIR", WORKSPACE / "target"))
    medians = criterion_medians(target / "criterion")
    if not medians:
        sys.exit(f"no criterion results for {GROUP_PREFIX}* under {target / 'criterion'}; "
                 "run `cargo bench --manifest-path benches/compare/Cargo.toml --target-dir target --bench peers` first")
    icepool = args.icepool or target / "peers" / "icepool.json"
    if icepool.exists():
        for workload, row in icepool_medians(icepool).items():
            medians.setdefault(workload, {}).update(row)
    else:
        print(f"(no icepool results at {icepool}: icepool column left out)", file=sys.stderr)
    print(table(medians))
    print()
    print(f"Medians. `÷ peer`: {OURS} ÷ peer, in parentheses {NOTATION} ÷ peer; "
          "below 1 dicepool is faster, **bold** above 1.")


if __name__ == "__main__":
    main()
