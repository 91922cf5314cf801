import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EvaluatorPool, type PoolJob } from './evaluator-pool.js';
import { DEFAULT_EXPRESSION_LIMITS } from './limits.js';

describe('EvaluatorPool', () => {
  const dir = mkdtempSync(join(tmpdir(), 'evaluator-pool-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("names an evaluator's last words whole when a character of them was split between two reads", async () => {
    // An evaluator that dies before it is ready, its stderr line written in two parts 50 ms apart, the cut
    // inside the 'é' (C3 | A9).
    const script = join(dir, 'dies.mjs');
    writeFileSync(
      script,
      [
        'process.stderr.write(Buffer.from([0x63, 0x61, 0x66, 0xc3]));',
        "setTimeout(() => { process.stderr.write(Buffer.from([0xa9, ...Buffer.from(' cassé\\n')])); process.exitCode = 3; }, 50);",
      ].join('\n'),
    );
    const pool = new EvaluatorPool({ size: 1, limits: DEFAULT_EXPRESSION_LIMITS, script });
    try {
      await expect(pool.evaluate({} as PoolJob)).rejects.toThrow(
        'the evaluator process did not start: the evaluator process ended (exit code 3): café cassé',
      );
    } finally {
      await pool.close();
    }
  });
});
