import { executeArgs, startHarness, type PluginHarness } from '@app/local-agent';
import { probePlugin } from './fixtures/probe-plugin.js';

const EXECUTE = '/api/v1/template.execute';
const slow = (key: string) => executeArgs({ probe: { delayMs: 1500, key } });

async function call(h: PluginHarness, body: unknown) {
  const res = await fetch(`${h.url}${EXECUTE}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${h.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), text: await res.text() };
}

describe('plugin kit: a bound on concurrent executions (503 past it, the agent retries)', () => {
  let h: PluginHarness;
  afterEach(() => h?.close());

  it('refuses a new execution past MAX_EXECUTIONS, keeps answering joins and foreign templates, recovers', async () => {
    h = await startHarness(probePlugin, { env: { MAX_EXECUTIONS: '3', CALL_DEADLINE: '200ms' } });
    const first = await Promise.all(['a', 'b', 'c'].map((k) => call(h, slow(k))));
    expect(first.map((r) => JSON.parse(r.text).node.phase)).toEqual(['Running', 'Running', 'Running']);

    const refused = await call(h, slow('d'));
    expect(refused).toMatchObject({ status: 503, retryAfter: '1' });
    expect(refused.text).toBe('probe: 3 executions are running (MAX_EXECUTIONS); call refused with 503');
    // A repeat of a running execution joins it; a template of another plugin costs nothing.
    expect((await call(h, slow('a'))).status).toBe(200);
    expect(await call(h, executeArgs({ other: {} }))).toMatchObject({ status: 200, text: '{}' });

    await new Promise((r) => setTimeout(r, 1700));
    const later = await call(h, slow('d'));
    expect(later.status).toBe(200);
  });

  it('takes the bound of the plugin definition over the kit env (one per plugin in a shared process)', async () => {
    h = await startHarness(
      { ...probePlugin, limits: { maxExecutions: 1 } },
      { env: { MAX_EXECUTIONS: '100', CALL_DEADLINE: '200ms' } },
    );
    expect((await call(h, slow('a'))).status).toBe(200);
    expect((await call(h, slow('b'))).status).toBe(503);
  });
});
