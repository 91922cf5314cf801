import { createMemoryLogger, Redactor } from '@app/plugin-kit';
import { StandInServer } from '@app/local-agent';
import { jettyError, LivyStandIn, type LivyVersion } from '../../../stand-ins/livy/livy.stand-in.js';
import type { LivyBlock } from './livy-block.dto.js';
import { LivyProvider } from './livy.provider.js';

const KEY = 'c0ffee00'.repeat(8);
const workflow = { name: 'wf', namespace: 'argo', uid: 'u' };
const block = { file: 's3://x.py' } as LivyBlock;

describe('LivyProvider', () => {
  it.each(['0.6', '0.7', '0.8'] as LivyVersion[])(
    'adopts its batch on the duplicate-name 400 of Livy %s',
    async (version) => {
      const livy = new LivyStandIn({
        version,
        lifecycle: [{ state: 'running', polls: 100 }, { state: 'success' }],
      });
      await livy.start();
      try {
        const provider = new LivyProvider({ url: livy.url }, 1000);
        const start = () =>
          provider.start({
            block,
            key: KEY,
            workflow,
            signal: AbortSignal.timeout(5000),
            logger: createMemoryLogger(new Redactor()).logger,
          });
        const first = await start();
        const second = await start();
        expect(second.ref).toEqual(first.ref);
        expect(livy.created).toHaveLength(1);
        expect(livy.server.calls.filter((c) => c.status === 400)).toHaveLength(1);
      } finally {
        await livy.close();
      }
    },
  );

  it('reads a 404 after its own cancel as cancelled, and otherwise as a forgotten batch', async () => {
    const livy = new LivyStandIn({ lifecycle: [{ state: 'running', polls: 100 }, { state: 'success' }] });
    await livy.start();
    try {
      const provider = new LivyProvider({ url: livy.url }, 1000);
      const signal = AbortSignal.timeout(5000);
      const run = await provider.start({
        block,
        key: KEY,
        workflow,
        signal,
        logger: createMemoryLogger(new Redactor()).logger,
      });
      await provider.cancel(run.ref, signal);
      await provider.cancel(run.ref, signal); // already gone: fine
      const ours = await provider.poll({
        ref: run.ref,
        block,
        signal,
        cancelRequested: true,
        declaredOutputs: new Set<string>(),
      });
      expect(ours).toMatchObject({
        state: 'cancelled',
        upstreamState: 'not found',
        message: 'batch 0 was deleted when it was cancelled',
      });
      const lost = await provider.poll({
        ref: run.ref,
        block,
        signal,
        cancelRequested: false,
        declaredOutputs: new Set<string>(),
      });
      expect(lost.state).toBe('failed');
      expect(lost.message).toMatch(/^Livy no longer knows batch 0 \(retention\)/);
    } finally {
      await livy.close();
    }
  });

  it("reduces Jetty's HTML error pages to their reason (a proxy that drops X-Requested-By)", async () => {
    const proxy = new StandInServer('proxy').route('POST', '/batches', (req) =>
      jettyError(400, 'Missing Required Header for CSRF protection.', req.path),
    );
    await proxy.start();
    try {
      const provider = new LivyProvider({ url: proxy.url }, 1000);
      const err = await provider
        .start({
          block,
          key: KEY,
          workflow,
          signal: AbortSignal.timeout(5000),
          logger: createMemoryLogger(new Redactor()).logger,
        })
        .catch((e: unknown) => e as Error);
      expect((err as Error).message).toBe(
        'livy: POST /batches → 400 Bad Request: Missing Required Header for CSRF protection.',
      );
    } finally {
      await proxy.close();
    }
  });
});
