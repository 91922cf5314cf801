import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RunContext, type Target } from './context.js';
import { SecretScanner } from './secrets.js';
import { WireTap } from './wire-tap.js';

describe('RunContext: a plugin that keeps the agent waiting stops the run', () => {
  it("stops after a call whose every attempt ran into the client's timeout, and makes no call after it", async () => {
    let requests = 0;
    const silent = createServer((req) => {
      requests++;
      req.resume();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = new URL(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`);
    const tap = new WireTap(url);
    await tap.start();
    try {
      const target = { url, key: 'k', token: 'bcdfghjklmnpqrstvwxz2456789bcdfg', timeScale: 1 } as Target;
      const ctx = new RunContext(target, tap, new SecretScanner([]));
      const session = ctx.session({ timeoutMs: 300, backoffMs: 10, attempts: 2 });
      const first = await session.call('own', 'first call', '{"a":1}');
      expect(first.error?.message).toMatch(/Client\.Timeout/);
      expect(ctx.stopped?.reason).toBe(
        "the plugin kept the agent waiting: 2 attempts at a call (first call) each ran into the client's 0.3 s timeout",
      );
      expect(ctx.signal.aborted).toBe(true);
      const after = await ctx.session().call('own', 'later call', '{"a":2}');
      expect(after.error?.message).toBe('not called: the run stopped');
      expect(requests).toBe(2);
      expect(ctx.outcomes.map((o) => o.label)).toEqual(['first call']);
    } finally {
      await tap.close();
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
