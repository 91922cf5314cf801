import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPluginProcess } from './plugin-process.js';

describe('startPluginProcess', () => {
  it('reports what a process wrote before it exited, a character split between two writes whole', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plugin-process-'));
    const entry = join(dir, 'main.js');
    writeFileSync(
      entry,
      "const b = Buffer.from('clé refusée'); process.stderr.write(b.subarray(0, 3));" +
        'setTimeout(() => { process.stderr.write(b.subarray(3)); process.exitCode = 3; }, 100);',
    );
    try {
      await expect(startPluginProcess('probe', entry, {}, { timeoutMs: 10_000 })).rejects.toThrow(
        'probe exited with code 3 before listening:\nclé refusée',
      );
    } finally {
      rmSync(dir, { recursive: true });
    }
  });
});
