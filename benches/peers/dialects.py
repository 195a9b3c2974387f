#!/usr/bin/env python3
"""Seeded rolls of two peer dice rollers against this crate's exact laws, on the dialect
corpora (crates/notation/tests/dialects/, issue 17).

For each expression of the Avrae d20 corpus (`d20.txt`) and the rpg-dice-roller corpus
(`rpg-dice-roller.txt`) that this crate reads (lines not marked `error`):

- the exact law comes from the `dice` command: `dice odds --dialect D EXPR --json`;
- the peer rolls it N times from a fixed seed: Avrae's `d20` (PyPI) in this process, with
  Python's `random` seeded; `@dice-roller/rpg-dice-roller` (npm) through
  `benches/peers/node/roll.mjs`, with its Mersenne Twister engine seeded;
- the rolls are compared with the law: a chi-square test over the outcomes (those expected
  fewer than 5 times lumped together, with any outcome the law does not list), and the mean
  within 5 standard errors of the law's. An expression agrees when the chi-square p-value is
  above 1e-4, the mean is within 5 standard errors, and no roll gave an outcome the law rules
  out.

Not part of the test suite. Setup, once:
    pip install --user d20                              # Avrae d20 (tested with 1.1.2)
    (cd benches/peers/node && npm install)              # rpg-dice-roller (5.5.x)
    cargo build --release -p dice-cli
Run:
    python3 benches/peers/dialects.py [--dice target/release/dice] [-n 10000] [--seed 1]
"""

import argparse
import json
import math
import os
import random
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "crates", "notation", "tests", "dialects")
NODE = os.path.join(ROOT, "benches", "peers", "node")


def corpus(name):
    """The expressions of a corpus file that this crate reads."""
    out = []
    with open(os.path.join(CORPUS, name + ".txt"), encoding="utf-8") as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            fields = [x.strip() for x in line.split("|")]
            if fields[2] != "error":
                out.append(fields[0])
    return out


def exact_law(dice, dialect, expr):
    """{outcome: probability} from `dice odds --json`, or None when refused."""
    run = subprocess.run(
        [dice, "odds", "--dialect", dialect, "--json", "--", expr],
        capture_output=True,
        text=True,
    )
    if run.returncode != 0:
        return None, run.stderr.strip().splitlines()[0] if run.stderr else "refused"
    v = json.loads(run.stdout)
    return {int(r["outcome"]): float(r["probability"]) for r in v["distribution"]}, None


def d20_rolls(expr, n, seed):
    import d20  # pip install --user d20

    random.seed(seed)
    return [int(d20.roll(expr, allow_comments=True).total) for _ in range(n)]


def rpg_rolls(exprs, n, seed):
    """Totals per expression from rpg-dice-roller (one node process for all)."""
    lines = "".join(json.dumps({"expr": e, "n": n, "seed": seed}) + "\n" for e in exprs)
    run = subprocess.run(
        ["node", "roll.mjs"], input=lines, capture_output=True, text=True, cwd=NODE
    )
    if run.returncode != 0:
        sys.exit("rpg-dice-roller: " + run.stderr)
    out = {}
    for line in run.stdout.splitlines():
        v = json.loads(line)
        out[v["expr"]] = v.get("totals") or v.get("error", "error")
    return out


def chi_square_p(stat, dof):
    """Upper tail of the chi-square law (Wilson–Hilferty normal approximation)."""
    if dof <= 0:
        return 1.0
    z = ((stat / dof) ** (1 / 3) - (1 - 2 / (9 * dof))) / math.sqrt(2 / (9 * dof))
    return 0.5 * math.erfc(z / math.sqrt(2))


def compare(law, totals):
    """(agrees, chi-square, dof, p, mean seen, exact mean, standard errors off, reason)."""
    n = len(totals)
    seen = {}
    for t in totals:
        seen[t] = seen.get(t, 0) + 1
    impossible = [o for o in seen if law.get(o, 0.0) == 0.0]
    mean = sum(o * p for o, p in law.items())
    var = sum(p * (o - mean) ** 2 for o, p in law.items())
    seen_mean = sum(totals) / n
    se = math.sqrt(var / n) if var > 1e-12 else 0.0
    if se > 0:
        off = abs(seen_mean - mean) / se
    else:
        off = 0.0 if abs(seen_mean - mean) <= 1e-9 * max(1.0, abs(mean)) else math.inf
    stat, bins = 0.0, 0
    rest_e, rest_o = 0.0, 0
    for o, p in law.items():
        e = p * n
        if e < 5:
            rest_e += e
            rest_o += seen.get(o, 0)
            continue
        stat += (seen.get(o, 0) - e) ** 2 / e
        bins += 1
    if rest_e >= 5:
        stat += (rest_o - rest_e) ** 2 / rest_e
        bins += 1
    dof = bins - 1
    p = chi_square_p(stat, dof)
    reason = ""
    if impossible:
        reason = "outcomes the law rules out: " + ", ".join(map(str, sorted(impossible)[:5]))
    elif p < 1e-4:
        reason = "chi-square"
    elif off > 5:
        reason = "mean"
    return not reason, stat, dof, p, seen_mean, mean, off, reason


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dice", default=os.path.join(ROOT, "target", "release", "dice"))
    ap.add_argument("-n", type=int, default=10000, help="rolls per expression")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    summary = []
    for dialect, peer in (("d20", "Avrae d20"), ("rpg-dice-roller", "rpg-dice-roller")):
        exprs = corpus(dialect)
        if dialect == "rpg-dice-roller":
            rolled = rpg_rolls(exprs, args.n, args.seed)
        counts = {"agree": 0, "disagree": 0, "no exact law": 0, "peer error": 0}
        print(f"\n{peer}: {len(exprs)} expressions, {args.n} seeded rolls each")
        print(f"{'expression':42} {'chi2':>9} {'dof':>4} {'p':>9} {'mean':>10} {'exact':>10} {'SE':>5}  verdict")
        for i, expr in enumerate(exprs):
            law, why = exact_law(args.dice, dialect, expr)
            if law is None:
                counts["no exact law"] += 1
                print(f"{expr:42} {'':>9} {'':>4} {'':>9} {'':>10} {'':>10} {'':>5}  no exact law: {why}")
                continue
            try:
                totals = d20_rolls(expr, args.n, args.seed + i) if dialect == "d20" else rolled[expr]
            except Exception as e:  # the peer refuses it
                totals = str(e)
            if isinstance(totals, str):
                counts["peer error"] += 1
                print(f"{expr:42} {'':>9} {'':>4} {'':>9} {'':>10} {'':>10} {'':>5}  peer error: {totals[:60]}")
                continue
            ok, stat, dof, p, seen, mean, off, reason = compare(law, totals)
            counts["agree" if ok else "disagree"] += 1
            print(
                f"{expr:42} {stat:9.1f} {dof:4d} {p:9.2e} {seen:10.3f} {mean:10.3f} {off:5.1f}  "
                + ("agrees" if ok else "DISAGREES (" + reason + ")")
            )
        summary.append((peer, len(exprs), counts))
    print()
    for peer, n, c in summary:
        print(f"{peer}: {n} expressions: " + ", ".join(f"{v} {k}" for k, v in c.items()))


if __name__ == "__main__":
    main()
