// Rolls rpg-dice-roller expressions with a seeded Mersenne Twister, for
// benches/peers/dialects.py. Input (stdin): one JSON object per line,
// {"expr": "4d6kh3", "n": 20000, "seed": 1}; output: one JSON line per input,
// {"expr": ..., "totals": [...]} or {"expr": ..., "error": "..."}.
import { createInterface } from 'node:readline';
import { DiceRoll, NumberGenerator } from '@dice-roller/rpg-dice-roller';

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (!line.trim()) continue;
  const { expr, n, seed } = JSON.parse(line);
  NumberGenerator.generator.engine = NumberGenerator.engines.MersenneTwister19937.seed(seed);
  try {
    const totals = [];
    for (let i = 0; i < n; i += 1) {
      totals.push(new DiceRoll(expr).total);
    }
    console.log(JSON.stringify({ expr, totals }));
  } catch (e) {
    console.log(JSON.stringify({ expr, error: String(e && e.message ? e.message : e) }));
  }
}
