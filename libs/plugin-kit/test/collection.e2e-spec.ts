import { executeArgs, startCollectionHarness, startHarness, type CollectionHarness } from '@app/local-agent';
import { EnvValidationError, startCollection, type CollectionDefinition } from '@app/plugin-kit';
import { probePlugin, probeWithEntryPlugin } from './fixtures/probe-plugin.js';

/** Two plugins behind one front: the probe and a second probe under another key and name. */
const probeB = { ...probePlugin, name: 'probe-b', key: 'probe-b', aliases: undefined };
const definition: CollectionDefinition = { name: 'collection', port: 0, plugins: [probePlugin, probeB] };
const SECRETS = {
  PROBE_PROBE_SECRET: 'alpha-secret-0123456789',
  PROBE_B_PROBE_SECRET: 'beta-secret-9876543210',
};

describe('a collection sidecar', () => {
  let h: CollectionHarness;
  afterEach(async () => h?.close());

  it('sends each template to its plugin, and {} to keys it does not serve', async () => {
    h = await startCollectionHarness(definition, { env: { ...SECRETS, PLUGINS: 'probe' } });
    expect((await h.execute(executeArgs({ probe: { message: 'a' } }))).body.node).toMatchObject({
      phase: 'Succeeded',
    });
    expect((await h.execute(executeArgs({ 'probe-b': {} }))).body).toEqual({});
    expect((await h.execute(executeArgs({ slack: {} }))).body).toEqual({});
    expect(h.plugins().map((p) => [p.key, p.loaded])).toEqual([['probe', true]]);
  });

  it('gives each plugin its own settings, secrets and log name', async () => {
    h = await startCollectionHarness(definition, { env: SECRETS });
    const a = await h.execute(executeArgs({ probe: { outcome: 'leak' } }));
    const b = await h.execute(executeArgs({ 'probe-b': { outcome: 'leak' } }));
    expect(a.body.node?.message).toBe('the secret is [REDACTED]');
    expect(b.body.node?.message).toBe('the secret is [REDACTED]');
    for (const secret of Object.values(SECRETS)) expect(h.logText()).not.toContain(secret);
    const executed = h.logs.filter((l) => l.msg === 'template.execute');
    expect(executed.map((l) => l.plugin).sort()).toEqual(['probe', 'probe-b']);
    expect(h.logs.find((l) => l.msg === 'listening')).toMatchObject({
      plugin: 'collection',
      plugins: ['probe', 'probe-b'],
    });
  });

  it("keeps one plugin's burst to its own bound: 503 for it, the other plugin still answers", async () => {
    h = await startCollectionHarness(definition, {
      env: { ...SECRETS, PROBE_B_MAX_EXECUTIONS: '1', CALL_DEADLINE: '200ms' },
    });
    const slow = await h.execute(executeArgs({ 'probe-b': { delayMs: 1500, key: 'slow' } }));
    expect(slow.body.node?.phase).toBe('Running');
    const refused = await h.execute(executeArgs({ 'probe-b': { key: 'second' } }));
    expect(refused.status).toBe(503);
    expect(refused.text).toBe('probe-b: 1 executions are running (MAX_EXECUTIONS); call refused with 503');
    expect((await h.execute(executeArgs({ probe: {} }))).body.node?.phase).toBe('Succeeded');
    expect(h.plugins().map((p) => [p.key, p.maxExecutions, p.inFlight])).toEqual([
      ['probe', 32, 0],
      ['probe-b', 1, 1],
    ]);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await h.execute(executeArgs({ 'probe-b': { key: 'second' } }))).body.node?.phase).toBe(
      'Succeeded',
    );
  });
});

describe('a plugin answering more than one key', () => {
  it('serves every key with the same handler, in a single sidecar as in a collection', async () => {
    const aliased = { ...probePlugin, aliases: { 'probe-alias': 'message' } };
    const single = await startHarness(aliased, { env: SECRETS });
    const hosted = await startCollectionHarness({ ...definition, plugins: [aliased] }, { env: SECRETS });
    try {
      for (const h of [single, hosted]) {
        const body = executeArgs({ 'probe-alias': 'via alias' });
        expect((await h.execute(body)).body.node).toMatchObject({ phase: 'Succeeded' });
        expect((await h.execute(executeArgs({ probe: {} }))).body.node?.phase).toBe('Succeeded');
        expect((await h.execute(executeArgs({ 'probe-b': {} }))).body).toEqual({});
      }
    } finally {
      await single.close();
      await hosted.close();
    }
  });
});

describe('a plugin with an entry of its own', () => {
  it('runs the entry with its handler and body class, in a single sidecar as in a collection', async () => {
    const single = await startHarness(probeWithEntryPlugin, { env: SECRETS });
    const hosted = await startCollectionHarness(
      { ...definition, plugins: [probeWithEntryPlugin] },
      { env: SECRETS },
    );
    try {
      for (const h of [single, hosted]) {
        expect((await h.execute(executeArgs({ 'probe-echo': { text: 'hi' } }))).body.node).toEqual({
          phase: 'Succeeded',
          message: 'echoed',
          outputs: { parameters: [{ name: 'echo', value: 'hi' }] },
        });
        // The entry's body class, not the probe's: the probe's fields are unknown there.
        expect((await h.execute(executeArgs({ 'probe-echo': { outcome: 'fail' } }))).body.node).toEqual({
          phase: 'Failed',
          message: 'probe-echo: invalid config: outcome: unknown field; text: must be a string',
        });
        expect((await h.execute(executeArgs({ probe: {} }))).body.node?.phase).toBe('Succeeded');
      }
    } finally {
      await single.close();
      await hosted.close();
    }
  });
});

describe('a collection that cannot start', () => {
  const start = (env: Record<string, string>) =>
    startCollection(definition, { env: { TOKEN_FILE: '/nonexistent', PORT: '0', ...env } });

  it('names the plugin and the variable of every bad setting, in one error', async () => {
    const err = (await start({ PROBE_B_CALL_DEADLINE: 'soon' }).catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(EnvValidationError);
    expect(err.message).toBe(
      'invalid configuration: probe-b (probe-b): CALL_DEADLINE: must be a Go duration such as 30s or 1m30s between 100ms and 29s',
    );
  });

  it('refuses a variable two enabled plugins read, and a key it does not have', async () => {
    await expect(start({ PROBE_SECRET: 'shared-secret-value' })).rejects.toThrow(
      'PROBE_SECRET: is read by probe and probe-b; set PROBE_PROBE_SECRET or PROBE_B_PROBE_SECRET instead',
    );
    await expect(start({ PLUGINS: 'probe,nope' })).rejects.toThrow(
      'PLUGINS: nope is not in this collection (it has probe, probe-target, probe-b)',
    );
  });
});

describe('names of 0.1.0 kept for one release', () => {
  const FORMER = 'former-secret-value-0123456789';
  const warnings = (h: { logs: Array<Record<string, unknown>> }) =>
    h.logs.filter((l) => String(l.msg).startsWith('deprecated names in use'));

  it('a value only in the former Secret is used and masked, with one warning at start naming it', async () => {
    const single = await startHarness(probePlugin, { env: { FORMER_PROBE_SECRET: FORMER } });
    const hosted = await startCollectionHarness(
      { ...definition, plugins: [{ ...probePlugin, formerName: 'old-probe' }, probeB] },
      { env: { PLUGINS: 'probe', FORMER_PROBE_SECRET: FORMER, OLD_PROBE_CALL_DEADLINE: '5s' } },
    );
    try {
      for (const h of [single, hosted]) {
        const leak = await h.execute(executeArgs({ probe: { outcome: 'leak' } }));
        expect(leak.body.node?.message).toBe('the secret is [REDACTED]');
        expect(h.logText()).not.toContain(FORMER);
        expect(warnings(h)).toHaveLength(1);
      }
      expect(warnings(single)[0]).toMatchObject({
        level: 'warn',
        formerNames: ['PROBE_SECRET (from the 0.1.0 Secret or ConfigMap)'],
      });
      expect(warnings(hosted)[0]).toMatchObject({
        plugin: 'collection',
        formerNames: [
          'PROBE_SECRET (from the 0.1.0 Secret or ConfigMap)',
          'OLD_PROBE_CALL_DEADLINE (now PROBE_CALL_DEADLINE)',
        ],
      });
    } finally {
      await single.close();
      await hosted.close();
    }
  });

  it('says nothing when the new Secret holds the value (the former one is then ignored)', async () => {
    const h = await startHarness(probePlugin, {
      env: { PROBE_SECRET: 'new-secret-value-0123456789', FORMER_PROBE_SECRET: FORMER },
    });
    try {
      expect(warnings(h)).toEqual([]);
    } finally {
      await h.close();
    }
  });
});
