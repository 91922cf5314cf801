import { executeArgs } from '@app/local-agent';
import { probePlugin, probeStats } from '../../test/fixtures/probe-plugin.js';
import { hostPlugin } from './hosted-plugin.js';
import { TemplateRouter } from './template-router.js';

/** The kit's hook for an agent that hosts plugins in process: a stopped workflow's execution is cancelled. */
describe('TemplateRouter.cancel, through the hosted plugin to its handler', () => {
  const start = () => {
    const hosted = hostPlugin(probePlugin, {
      source: {},
      shutdown: new AbortController().signal,
      logDestination: { write: () => undefined },
    });
    return { hosted, router: new TemplateRouter(hosted.executors) };
  };
  beforeEach(() => probeStats.reset());

  it("reaches the handler's cancel with the state earlier calls saved, under the same execution key", async () => {
    const { hosted, router } = start();
    const job = executeArgs({ probe: { outcome: 'job' } });
    expect((await router.execute(job)).node?.phase).toBe('Running');
    expect(await router.cancel(job)).toBe(true);
    expect(probeStats.cancels).toEqual([...probeStats.byKey.keys()]);
    await hosted.close();
  });

  it('does nothing for an execution never run here, one that succeeded, or a key nobody answers', async () => {
    const { hosted, router } = start();
    const done = executeArgs({ probe: { outcome: 'succeed' } });
    await router.execute(done);
    expect(await router.cancel(done)).toBe(false);
    expect(await router.cancel(executeArgs({ probe: { outcome: 'job', key: 'never' } }))).toBe(false);
    expect(await router.cancel(executeArgs({ other: {} }))).toBe(false);
    expect(probeStats.cancels).toEqual([]);
    await hosted.close();
  });
});
