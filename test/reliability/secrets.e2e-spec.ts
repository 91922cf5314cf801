import { randomBytes } from 'node:crypto';
import { EXECUTE_TEMPLATE_PATH } from '@app/contract';
import { looksSecret } from '@app/plugin-kit';
import { otherKeyMaterial } from './support/key-material.js';
import { validRequest } from './support/bad-requests.js';
import { exampleBodies } from './support/example-bodies.js';
import { launch, type PluginRun } from './support/plugin-run.js';
import { sendRaw } from './support/raw-http.js';
import { report } from './support/report.js';
import { SecretSweep } from './support/secret-sweep.js';
import { runSequence } from './support/sequence-workflow.js';
import { coverageLine, discoverApps, probeTarget, type PluginTarget } from './support/targets.js';

/**
 * Secrets in logs and replies, where they are most likely to slip out: every plugin at LOG_LEVEL=debug running
 * its representative body through the agent and every example body of its docs; then again with every
 * credential replaced by a wrong one of the same shape (so each upstream rejects it and the error paths run);
 * and the kit's probe, whose handler deliberately logs and returns its secret. Every secret value of every
 * run (agent token, env variables whose names look secret, Basic-auth pairs) is searched for in everything.
 * The other suites run the same sweep over their own logs and replies.
 */
const NODES = 8;
const apps = discoverApps();
const names = [...apps.targets.map((t) => t.name), 'probe'];
const sweep = new SecretSweep();
const lines: string[] = [];

/** The same credential shape (prefix and length kept, or other key material in the same form), wrong value. */
function wrongLike(value: string): string {
  const key = otherKeyMaterial(value);
  if (key) return key;
  const keep = Math.min(5, Math.floor(value.length / 3));
  const noise = randomBytes(value.length)
    .toString('hex')
    .slice(0, value.length - keep);
  return value.slice(0, keep) + noise;
}

/** Calls the plugin with `body` like the agent (until final, at most 6 calls); returns the last phase. */
async function drive(run: PluginRun, body: unknown, seq: string): Promise<string> {
  const request = validRequest(run.target.key, body) as {
    template: { inputs: { parameters: Array<{ value: string }> } };
  };
  request.template.inputs.parameters[0].value = seq;
  let phase = '';
  for (let i = 0; i < 6; i++) {
    const outcome = await sendRaw(
      run.url,
      {
        method: 'POST',
        path: EXECUTE_TEMPLATE_PATH,
        headers: { Authorization: `Bearer ${run.token}` },
        body: JSON.stringify(request),
      },
      { timeoutMs: 30_000 },
    );
    if (outcome.kind === 'reply') sweep.collect(`${run.target.name} reply`, outcome.text);
    phase =
      outcome.kind === 'reply'
        ? ((JSON.parse(outcome.text || '{}') as { node?: { phase?: string } }).node?.phase ?? '{}')
        : 'error';
    if (phase !== 'Running' && phase !== 'Pending') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return phase;
}

async function session(
  target: PluginTarget,
  label: string,
  env: Record<string, string>,
  rewrite?: (env: Record<string, string>) => Record<string, string>,
): Promise<string> {
  const run = await launch(target, {
    sweep,
    env: { LOG_LEVEL: 'debug', CALL_DEADLINE: '5s', ...env },
    rewriteEnv: rewrite,
  });
  try {
    const outcome = await runSequence(run, NODES, { name: `secrets-${label}` });
    sweep.collect(`${target.name} ${label} nodes`, JSON.stringify(outcome.result));
    const examples = target.name === 'probe' ? [] : exampleBodies(target.name, target.key);
    const phases = await Promise.all(examples.map((b, i) => drive(run, b, `${label}-example-${i}`)));
    expect(run.crashes).toEqual([]);
    return `${label}: agent ${Object.entries(outcome.phases)
      .map(([p, n]) => `${p}×${n}`)
      .join(' ')}, examples ${phases.join(' ') || 'none'}`;
  } finally {
    await run.close();
  }
}

describe('secrets never appear in logs or replies (debug level, rejected credentials, a handler that leaks)', () => {
  afterAll(() => {
    report(
      coverageLine('secrets', { targets: names.map((name) => ({ name })) as never, skipped: apps.skipped }),
    );
    const leaks = sweep.check();
    report(
      `secrets: ${names.length} plugins at LOG_LEVEL=debug with right and wrong credentials: ${sweep.summary()}`,
    );
    lines.forEach((l) => report(`  ${l}`));
    expect(leaks).toEqual([]);
  });

  it.each(names)(
    '%s',
    async (name) => {
      if (name === 'probe') {
        const target = { ...(await probeTarget()), config: { outcome: 'leak' } };
        lines.push(`probe: ${await session(target, 'a handler that logs and returns its secret', {})}`);
        return;
      }
      const target = apps.targets.find((t) => t.name === name)!;
      const right = await session(target, 'right credentials', {});
      const wrong = await session(target, 'wrong credentials', {}, (env) =>
        Object.fromEntries(
          Object.entries(env).map(([k, v]) => [k, looksSecret(k) && v.length >= 8 ? wrongLike(v) : v]),
        ),
      );
      lines.push(`${name}: ${right}; ${wrong}`);
      expect(wrong).not.toMatch(/agent Succeeded×/);
    },
    120_000,
  );
});
