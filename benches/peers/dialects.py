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

With `--replay`, each corpus line is first replayed through the peer itself: the peer's
random draws are replaced by the line's faces (d20: `random.randrange`; rpg-dice-roller: the
dice's `rollOnce`), and the total it gives must be the line's value, with every face used.
The peer draws the faces of a set of dice before it rerolls or explodes any of them, where
this crate's corpora list each die with its rerolls and explosions; a line whose order
differs says the peer's order in its note: `draws 4,5,6`.

Not part of the test suite. Setup, once:
    pip install --user d20                              # Avrae d20 (tested with 1.1.2)
    (cd benches/peers/node && npm install)              # rpg-dice-roller (5.5.x)
    cargo build --release -p dice-cli
Run:
    python3 benches/peers/dialects.py [--dice target/release/dice] [-n 10000] [--seed 1]
    python3 benches/peers/dialects.py --replay [--replay-only]
"""

import argparse
import json
import math
import os
import random
import re
import subprocess
import sys
from fractions import Fraction

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "crates", "notation", "tests", "dialects")
NODE = os.path.join(ROOT, "benches", "peers", "node")


def entries(name, pending=False):
    """(line number, expression, faces, value or None for `error`, note) of a corpus file;
    with `pending`, also the lines written out with `#? ` (constructs not read yet)."""
    out = []
    with open(os.path.join(CORPUS, name + ".txt"), encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            if pending and line.startswith("#? "):
                line = line[3:]
            elif not line.strip() or line.startswith("#"):
                continue
            fields = [x.strip() for x in line.split("|")]
            faces = [int(x) for x in fields[1].split(",") if x.strip()]
            # A value may be a fraction (`52/7`) or an exact decimal (`9.45`).
            value = None if fields[2] == "error" else Fraction(fields[2])
            if value is not None and value.denominator == 1:
                value = int(value)
            out.append((i, fields[0], faces, value, fields[3]))
    return out


def corpus(name):
    """The expressions of a corpus file that this crate reads."""
    return [e for _, e, _, v, _ in entries(name) if v is not None]


def peer_faces(faces, note):
    """The faces in the peer's order: the note's `draws a,b,c` where it gives one."""
    m = re.search(r"draws (-?\d+(?:, ?-?\d+)*)", note)
    return [int(x) for x in m.group(1).split(",")] if m else faces


def d20_replay(expr, faces):
    """d20's total with its draws replaced by `faces` (a `d%` face f is the tens die's
    (f - 1) * 10, as this crate reads it), or the error it raises."""
    import d20

    left = list(faces or [])

    def draw(*args):
        if not left:
            raise RuntimeError("ran out of faces")
        f = left.pop(0)
        if len(args) == 1:
            if not 1 <= f <= args[0]:
                raise RuntimeError(f"face {f} on a d{args[0]}")
            return f - 1
        if not 1 <= f <= 10:
            raise RuntimeError(f"face {f} on a d%")
        return (f - 1) * 10

    saved = random.randrange
    if faces is not None:
        random.randrange = draw
    try:
        total = int(d20.roll(expr, allow_comments=True).total)
    except Exception as e:  # noqa: BLE001 - the peer's refusal is the answer
        return None, f"{type(e).__name__}: {e}"
    finally:
        random.randrange = saved
    if left:
        return total, f"faces left over: {left}"
    return total, None


RPG_REPLAY = r"""
import { createInterface } from 'node:readline';
import { DiceRoll, Dice, Results } from '@dice-roller/rpg-dice-roller';
let left = [];
const next = (min, max) => {
  if (!left.length) throw new Error('ran out of faces');
  const f = left.shift();
  if (f < min || f > max) throw new Error(`face ${f} on a die of ${min}..${max}`);
  return new Results.RollResult(f);
};
// faces null: the library's own random draws (to see whether it refuses the expression).
let own = false;
const standard = Dice.StandardDice.prototype.rollOnce;
const fudge = Dice.FudgeDice.prototype.rollOnce;
Dice.StandardDice.prototype.rollOnce = function () {
  return own ? standard.call(this) : next(this.min, this.max);
};
Dice.FudgeDice.prototype.rollOnce = function () {
  return own ? fudge.call(this) : next(-1, 1);
};
for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const { expr, faces } = JSON.parse(line);
  own = faces === null;
  left = (faces || []).slice();
  try {
    const total = new DiceRoll(expr).total;
    console.log(JSON.stringify({ expr, total, left }));
  } catch (e) {
    console.log(JSON.stringify({ expr, error: String(e && e.message ? e.message : e) }));
  }
}
"""


def rpg_replay(items):
    """[(total or None, problem or None)] from rpg-dice-roller for [(expr, faces)]."""
    lines = "".join(json.dumps({"expr": e, "faces": f}) + "\n" for e, f in items)
    run = subprocess.run(
        ["node", "--input-type=module", "-e", RPG_REPLAY],
        input=lines,
        capture_output=True,
        text=True,
        cwd=NODE,
    )
    if run.returncode != 0:
        sys.exit("rpg-dice-roller: " + run.stderr)
    out = []
    for line in run.stdout.splitlines():
        v = json.loads(line)
        if "error" in v:
            out.append((None, v["error"]))
        elif v["left"]:
            out.append((v["total"], f"faces left over: {v['left']}"))
        else:
            out.append((v["total"], None))
    return out


def replay(pending):
    """Replays every corpus line through its peer; returns the number of disagreements."""
    bad = 0
    for dialect in ("d20", "rpg-dice-roller"):
        rows = entries(dialect, pending)
        # An `error` line without faces: the peer rolls with its own randomness.
        items = [
            (e, None if v is None and not f else peer_faces(f, n)) for _, e, f, v, n in rows
        ]
        if dialect == "d20":
            got = [d20_replay(e, f) for e, f in items]
        else:
            got = rpg_replay(items)
        agree = refused = 0
        for (line, expr, _, value, note), (total, problem) in zip(rows, got):
            if value is None:
                # `error` lines are this crate's refusals; say what the peer gives.
                refused += 1
                print(f"{dialect}.txt:{line} `{expr}`: refused here; the peer gives "
                      + (str(total) if problem is None else problem))
                continue
            if total is not None and problem is None and total == value:
                agree += 1
                continue
            if isinstance(total, float) and abs(total - value) < 1e-9:
                agree += 1
                continue
            # rpg-dice-roller shows a fraction rounded to 2 places (`52/7` as 7.43).
            if isinstance(total, float) and abs(total - round2(value)) < 1e-9:
                agree += 1
                continue
            bad += 1
            print(f"{dialect}.txt:{line} `{expr}` ({note}): the peer gives {total}"
                  + (f" ({problem})" if problem else "") + f", the line says {value}")
        print(f"{dialect}: {len(rows)} lines replayed through the peer: {agree} give the "
              f"line's value, {refused} refused here, {len(rows) - agree - refused} differ")
    return bad


def round2(q):
    """A fraction rounded to 2 places, halves up (as rpg-dice-roller shows it), computed on
    the exact fraction: Python's `round` rounds halves to even, and on a float."""
    q = Fraction(q)
    return float(math.floor(q * 100 + Fraction(1, 2))) / 100


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
    # A fraction (`"52/7"`) as the peers give it: rpg-dice-roller rounds to 2 places.
    law = {}
    for r in v["distribution"]:
        o = Fraction(str(r["outcome"]))
        key = int(o) if o.denominator == 1 else round2(o)
        law[key] = law.get(key, 0.0) + float(r["probability"])
    return law, None


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
    ap.add_argument("--replay", action="store_true",
                    help="first replay each line's faces through the peer")
    ap.add_argument("--replay-only", action="store_true", help="only the replay")
    ap.add_argument("--pending", action="store_true",
                    help="replay the `#? ` lines (constructs not read yet) too")
    args = ap.parse_args()
    if args.replay or args.replay_only:
        bad = replay(args.pending)
        if args.replay_only:
            sys.exit(1 if bad else 0)
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
