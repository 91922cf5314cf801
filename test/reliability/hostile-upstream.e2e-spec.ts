import { connect, type Socket } from 'node:net';
import { EXECUTE_TEMPLATE_PATH } from '@app/contract';
import { FRONT_LIMITS, looksSecret } from '@app/plugin-kit';
import { PluginRpcClient } from '@app/argo-agent';
import { StandInServer } from '@app/local-agent';
import { validRequest } from './support/bad-requests.js';
import type { ProxyAttack } from './support/fault-proxy.js';
import { keepAliveAgent, sendRaw } from './support/raw-http.js';
import { report, sleep } from './support/report.js';
import { SecretSweep } from './support/secret-sweep.js';
import { holdSlots } from './support/slot-holder.js';
import { launchBehindProxy, type ProxiedRun } from './support/side-effects.js';
import { coverageLine, discoverApps } from './support/targets.js';

/**
 * Hostile upstreams: a proxy in front of each plugin's counted stand-in turns every reply into an attack —
 * an error echoing every request header and the body (credentials included, placed across the 200-character
 * cut), a 64 MiB body, heap-dense JSON under the byte cap (`[{},{},…]` and `[[[…]]]`, as a reply and as an
 * error), a reply that trickles in one byte at a time, a redirect to another host, and for Slack an upload URL
 * on another host. Every credential is configured with surrounding whitespace (a Secret made with
 * `--from-file`). Per plugin, with the manifest's node flags: the sidecar stays up, other calls are answered
 * meanwhile, no broken reply makes a node Succeed, no credential (as configured, trimmed, URL-encoded, Basic)
 * appears in any reply or log line, peak RSS stays under the manifest's limit, a trickling reply is cut at
 * the upstream deadline. Then the front: an execution flood over a hanging upstream (503 past MAX_EXECUTIONS),
 * 18,000 idle connections (bounded by maxConnections and the header timeout), and a client holding every
 * connection slot while the agent calls with its retry schedule.
 */
const UPSTREAM_TIMEOUT_MS = 2000;
const CALL_DEADLINE = '1s';
const HUGE = 64 * 1024 * 1024;
/** Heap-dense replies stay under UPSTREAM_MAX_BODY (4 MiB), so only the bound on what they build stops them. */
const DENSE = 4 * 1024 * 1024 - 1024;
const FLOOD_EXECUTIONS = 2000;
const MAX_EXECUTIONS = 100;
const IDLE_CONNECTIONS = 18_000;
const AGENT_CALLS = 10;

const apps = discoverApps();
const targets = apps.targets.filter((t) => t.countUrl && t.countUpstreamEnv);
const sweep = new SecretSweep();
const lines: string[] = [];
const elsewhere = new StandInServer('elsewhere', () => ({ status: 200, body: { ok: true } }));

/** The manifest's memory limit in MiB (what /proc reports RSS in). */
const limitMib = (target: { memoryLimitMiB?: number }): number => target.memoryLimitMiB ?? 160;
const mib = (n: number): string => `${n.toFixed(0)} MiB`;

/**
 * Every timeout variable of the four plugins, lowered so a trickle is cut quickly. The collection hosts two
 * plugins reading UPSTREAM_TIMEOUT, so there it takes the per-plugin forms (the plain one stops its start).
 */
function timeouts(target: { name: string }): Record<string, string> {
  const value = `${UPSTREAM_TIMEOUT_MS}ms`;
  const upstream: Record<string, string> =
    target.name === 'collection'
      ? { BUILD_TRIGGER_UPSTREAM_TIMEOUT: value, DATA_JOB_RUNNER_UPSTREAM_TIMEOUT: value }
      : { UPSTREAM_TIMEOUT: value };
  return {
    ...upstream,
    SLACK_REQUEST_TIMEOUT: value,
    NOTIFY_REQUEST_TIMEOUT: value,
    ARGO_REQUEST_TIMEOUT: value,
  };
}

/** Every credential as an operator may carelessly configure it: surrounded by spaces and a newline. */
function withWhitespace(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, looksSecret(k) && v ? `  ${v}\n` : v]));
}

interface Call {
  status: number | string;
  phase: string;
  message: string;
  ms: number;
}

async function call(proxied: ProxiedRun, body: unknown, seq: string): Promise<Call> {
  const { run } = proxied;
  const request = validRequest(run.target.key, body) as {
    template: { inputs: { parameters: Array<{ value: string }> } };
  };
  request.template.inputs.parameters[0].value = seq;
  const outcome = await sendRaw(
    run.url,
    {
      method: 'POST',
      path: EXECUTE_TEMPLATE_PATH,
      headers: { Authorization: `Bearer ${run.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(request),
    },
    { timeoutMs: 30_000 },
  );
  if (outcome.kind === 'error')
    return { status: outcome.code ?? 'error', phase: '', message: '', ms: outcome.ms };
  sweep.collect(`${run.target.name} reply`, outcome.text);
  const node = (outcome.status === 200 ? JSON.parse(outcome.text || '{}') : {}) as {
    node?: { phase?: string; message?: string };
  };
  return {
    status: outcome.status,
    phase: node.node?.phase ?? '{}',
    message: node.node?.message ?? '',
    ms: outcome.ms,
  };
}

/** A template of another plugin: must be answered `{}` at once, whatever the plugin's upstream does. */
async function foreign(proxied: ProxiedRun): Promise<Call> {
  const { run } = proxied;
  const outcome = await sendRaw(
    run.url,
    {
      method: 'POST',
      path: EXECUTE_TEMPLATE_PATH,
      headers: { Authorization: `Bearer ${run.token}` },
      body: JSON.stringify(validRequest('some-other-plugin', {})),
    },
    { timeoutMs: 5000 },
  );
  return outcome.kind === 'reply'
    ? { status: outcome.status, phase: outcome.text, message: '', ms: outcome.ms }
    : { status: outcome.code ?? 'error', phase: '', message: '', ms: outcome.ms };
}

/** Calls like the agent (requeue after requeue, a 503 retried after a second) until a final phase, or `maxCalls`. */
async function drive(proxied: ProxiedRun, body: unknown, seq: string, maxCalls = 4): Promise<Call> {
  let last: Call = { status: 0, phase: '', message: '', ms: 0 };
  for (let i = 0; i < maxCalls; i++) {
    last = await call(proxied, body, seq);
    if (last.status === 503) await sleep(1000);
    else if (last.phase === 'Running' || last.phase === 'Pending') await sleep(300);
    else break;
  }
  return last;
}

interface Attack {
  name: string;
  attack: ProxyAttack;
  body?: (config: Record<string, unknown>) => unknown;
  only?: string;
  /** What the last reply's message must say. */
  expect?: RegExp;
}

const attacks = (elsewhereUrl: string): Attack[] => [
  { name: 'echo', attack: { kind: 'echo' } },
  { name: 'echo across the cut', attack: { kind: 'echo', pad: 185 } },
  { name: 'huge body', attack: { kind: 'huge', bytes: HUGE }, expect: /reply larger than 4 MiB/ },
  { name: 'huge error', attack: { kind: 'huge', bytes: HUGE, status: 500 } },
  {
    name: 'heap-dense [{},…]',
    attack: { kind: 'dense', shape: 'wide', bytes: DENSE },
    expect: /reply holds more than 100000 JSON values and keys/,
  },
  {
    name: 'heap-dense [[[…]]]',
    attack: { kind: 'dense', shape: 'deep', bytes: DENSE },
    expect: /reply nested deeper than 64 levels/,
  },
  {
    name: 'heap-dense error',
    attack: { kind: 'dense', shape: 'wide', bytes: DENSE, status: 500 },
    expect: /reply holds more than 100000 JSON values and keys/,
  },
  { name: 'redirect elsewhere', attack: { kind: 'redirect', location: `${elsewhereUrl}/steal` } },
  {
    name: 'hostile upload URL',
    only: 'chat-notifier',
    attack: {
      kind: 'rewrite',
      path: '/api/files.getUploadURLExternal',
      rewrite: (text) => text.replace(/"upload_url":"[^"]*"/, `"upload_url":"${elsewhereUrl}/upload/v1/x"`),
    },
    body: (config) => ({ ...config, file: { content: 'build log', filename: 'build.log' } }),
    expect: /the upload URL points to http:\/\/127\.0\.0\.1:\d+, which is neither Slack's upload host/,
  },
];

describe('hostile upstreams: echoed credentials, huge and trickling replies, redirects, hostile upload URLs', () => {
  beforeAll(() => elsewhere.start());
  afterAll(async () => {
    await elsewhere.close();
    report(coverageLine('hostile-upstream', { targets, skipped: apps.skipped }));
    report(`hostile-upstream: secrets: ${sweep.summary()}`);
    lines.forEach((l) => report(`  ${l}`));
    expect(sweep.check()).toEqual([]);
  });

  it.each(targets.map((t) => t.name))(
    '%s',
    async (name) => {
      const target = targets.find((t) => t.name === name)!;
      const proxied = await launchBehindProxy(
        target,
        { seed: 1, rate: 0, faults: [] },
        {
          sweep,
          env: { LOG_LEVEL: 'debug', CALL_DEADLINE, RETRY_BUDGET: '0', ...timeouts(target) },
          rewriteEnv: withWhitespace,
        },
      );
      const { run, proxy } = proxied;
      const results: string[] = [];
      const problems: string[] = [];
      const prefixes = Object.entries(run.env)
        .map(([k, v]) => (looksSecret(k) ? v.trim().replace(/^(Bearer|Token)\s+/i, '') : ''))
        .filter((v) => v.length >= 16)
        .map((v) => v.slice(0, 10));
      try {
        // Sanity: through the proxy, with whitespace around every credential, a normal call succeeds.
        const baseline = await drive(proxied, target.config, 'baseline', 12);
        if (baseline.phase !== 'Succeeded') problems.push(`baseline: ${baseline.phase} ${baseline.message}`);

        for (const a of attacks(elsewhere.url).filter((x) => !x.only || x.only === name)) {
          proxy.attack = a.attack;
          const [result, other] = await Promise.all([
            drive(proxied, a.body ? a.body(target.config) : target.config, `attack-${a.name}`),
            sleep(200).then(() => foreign(proxied)),
          ]);
          proxy.attack = undefined;
          results.push(`${a.name} → ${result.phase || result.status} (${result.ms} ms)`);
          if (result.phase === 'Succeeded' || result.status !== 200)
            problems.push(`${a.name}: ${result.status} ${result.phase} ${result.message}`);
          // A credential cut at the message limit would leave a prefix the sweep (whole values) cannot see.
          for (const prefix of prefixes)
            if (result.message.includes(prefix))
              problems.push(`${a.name}: credential prefix ${prefix.slice(0, 4)}… shown`);
          if (a.expect && !a.expect.test(result.message))
            problems.push(`${a.name}: message ${JSON.stringify(result.message)}`);
          if (other.status !== 200 || other.phase !== '{}' || other.ms > 2000)
            problems.push(
              `${a.name}: a foreign template got ${other.status} ${other.phase} in ${other.ms} ms`,
            );
        }

        // A reply trickling in one byte a second: the request is cut at the upstream deadline.
        proxy.attack = { kind: 'trickle', intervalMs: 1000 };
        const trickled = await call(proxied, target.config, 'attack-trickle');
        const other = await foreign(proxied);
        await sleep(UPSTREAM_TIMEOUT_MS + 1500);
        proxy.attack = undefined;
        const held = proxy.attacked.filter((x) => x.heldMs !== undefined && x.request).map((x) => x.heldMs!);
        const longest = Math.max(...held.slice(-3));
        results.push(`trickle → ${trickled.phase}, cut after ${(longest / 1000).toFixed(1)} s`);
        if (trickled.phase === 'Succeeded') problems.push(`trickle: Succeeded`);
        if (other.status !== 200 || other.phase !== '{}')
          problems.push(`trickle: foreign template got ${other.status}`);
        if (!(longest <= UPSTREAM_TIMEOUT_MS + 1000)) problems.push(`trickle: a request held ${longest} ms`);

        let after = await drive(proxied, target.config, 'after-attacks', 12);
        // RETRY_BUDGET is 0 here, so a kept-alive connection the proxy closed as idle just as the request went
        // out (a reset, which the plugin treats as transient and would retry) fails the node: try a new one.
        if (after.phase === 'Failed' && /ECONNRESET|socket hang up|EPIPE/.test(after.message)) {
          after = await drive(proxied, target.config, 'after-attacks-again', 12);
          results.push(`after the attacks: a reset connection, then a new node → ${after.phase}`);
        }
        if (after.phase !== 'Succeeded') problems.push(`after the attacks: ${after.phase} ${after.message}`);
        if (elsewhere.calls.length > 0)
          problems.push(`${elsewhere.calls.length} requests reached another host`);

        const memory = run.memory();
        const limit = limitMib(target);
        lines.push(
          `${name}: ${results.join(', ')}; peak RSS ${mib(memory.peakMb)} (limit ${mib(limit)}, ${run.target.nodeArgs.join(' ') || 'no node flags'}, ${run.proc.memoryModel})`,
        );
        if (memory.peakMb >= limit) problems.push(`peak RSS ${mib(memory.peakMb)} ≥ ${mib(limit)}`);
        expect({ crashes: run.crashes, problems }).toEqual({ crashes: [], problems: [] });
      } finally {
        await run.close();
        await proxy.close();
      }
    },
    120_000,
  );

  it(`the front: ${FLOOD_EXECUTIONS} executions over a hanging upstream, then ${IDLE_CONNECTIONS} idle connections`, async () => {
    // Any plugin: the front and the bound are the kit's. Not Slack, whose client queues requests 8 at a time.
    const target = targets.find((t) => t.name === 'build-trigger') ?? targets[0];
    const proxied = await launchBehindProxy(
      target,
      { seed: 1, rate: 0, faults: [] },
      // The upstream holds every execution longer than the flood lasts, so exactly MAX_EXECUTIONS are admitted.
      { sweep, env: { CALL_DEADLINE, MAX_EXECUTIONS: String(MAX_EXECUTIONS), UPSTREAM_TIMEOUT: '15s' } },
    );
    const { run, proxy } = proxied;
    try {
      proxy.attack = { kind: 'trickle', intervalMs: 500 };
      const agent = keepAliveAgent(200);
      const statuses = new Map<string, number>();
      const floodStart = performance.now();
      const floods = await Promise.all(
        Array.from({ length: FLOOD_EXECUTIONS }, (_, i) => {
          const request = validRequest(target.key, target.config) as {
            template: { inputs: { parameters: Array<{ value: string }> } };
          };
          request.template.inputs.parameters[0].value = `flood-${i}`;
          return sendRaw(
            run.url,
            {
              method: 'POST',
              path: EXECUTE_TEMPLATE_PATH,
              headers: { Authorization: `Bearer ${run.token}` },
              body: JSON.stringify(request),
            },
            { timeoutMs: 30_000, agent },
          );
        }),
      );
      agent.destroy();
      for (const f of floods) {
        const key = f.kind === 'reply' ? String(f.status) : (f.code ?? 'error');
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
      }
      const floodPeak = run.memory().peakMb;
      const floodSeconds = (performance.now() - floodStart) / 1000;
      proxy.stopAttack();
      const recovered = await drive(proxied, target.config, 'after-flood', 12);

      // Idle connections that never send a byte.
      const before = run.memory().rssMb;
      const sockets: Socket[] = [];
      const opened = performance.now();
      for (let i = 0; i < IDLE_CONNECTIONS; i += 500) {
        const batch = Array.from({ length: Math.min(500, IDLE_CONNECTIONS - i) }, () => {
          const s = connect(run.port, '127.0.0.1');
          s.on('error', () => undefined);
          sockets.push(s);
          return new Promise((resolve) => s.once('connect', resolve).once('close', resolve));
        });
        await Promise.all(batch);
      }
      // The front keeps the newest connections (a new one closes the oldest that sent nothing): the last opened.
      const lastOpened = performance.now();
      await sleep(500);
      const held = sockets.filter((s) => !s.destroyed && !s.readableEnded).length;
      const idleRss = run.memory().rssMb;
      // The front closes a connection that sent no headers after headersTimeout (checked every second).
      const closedWithin = FRONT_LIMITS.headersTimeout + 2 * FRONT_LIMITS.connectionsCheckingInterval + 1000;
      while (
        sockets.some((s) => !s.destroyed && !s.readableEnded) &&
        performance.now() - lastOpened < closedWithin
      )
        await sleep(250);
      const stillOpen = sockets.filter((s) => !s.destroyed && !s.readableEnded).length;
      const openingSeconds = (lastOpened - opened) / 1000;
      const closedAfter = (performance.now() - lastOpened) / 1000;
      sockets.forEach((s) => s.destroy());
      const answered = await drive(proxied, target.config, 'after-idle', 12);
      const memory = run.memory();
      const limit = limitMib(target);
      const busy = statuses.get('503') ?? 0;
      lines.push(
        `front (${target.name}): ${FLOOD_EXECUTIONS} executions over a trickling upstream: ` +
          `${[...statuses].map(([k, n]) => `${k}×${n}`).join(', ')} (MAX_EXECUTIONS ${MAX_EXECUTIONS}) in ${floodSeconds.toFixed(1)} s, peak RSS ${mib(floodPeak)}; ` +
          `${IDLE_CONNECTIONS} idle connections: ${held} held (maxConnections ${FRONT_LIMITS.maxConnections}), RSS ${mib(before)} → ${mib(idleRss)}, ` +
          `opened in ${openingSeconds.toFixed(1)} s, all closed by the front within ${closedAfter.toFixed(1)} s of the last; peak RSS ${mib(memory.peakMb)} (limit ${mib(limit)})`,
      );
      expect({
        crashes: run.crashes,
        admitted: statuses.get('200'),
        refusedWith503: busy,
        otherStatuses: [...statuses.keys()].filter((k) => k !== '200' && k !== '503'),
        recovered: `${recovered.status} ${recovered.phase}`,
        heldAtMost: held <= FRONT_LIMITS.maxConnections,
        stillOpen,
        answered: `${answered.status} ${answered.phase}`,
        underLimit: memory.peakMb < limit,
      }).toEqual({
        crashes: [],
        admitted: MAX_EXECUTIONS,
        refusedWith503: FLOOD_EXECUTIONS - MAX_EXECUTIONS,
        otherStatuses: [],
        recovered: '200 Succeeded',
        heldAtMost: true,
        stillOpen: 0,
        answered: '200 Succeeded',
        underLimit: true,
      });
    } finally {
      await run.close();
      await proxy.close();
    }
  }, 120_000);

  it('the front: a local client holding every connection slot never locks the agent out', async () => {
    const target = targets.find((t) => t.name === 'build-trigger') ?? targets[0];
    const proxied = await launchBehindProxy(
      target,
      { seed: 1, rate: 0, faults: [] },
      { sweep, env: { CALL_DEADLINE } },
    );
    const { run, proxy } = proxied;
    const holder = holdSlots(run.port, FRONT_LIMITS.maxConnections);
    try {
      await holder.filled;
      const started = performance.now();
      const tries: string[] = [];
      let slowest = 0;
      // The agent's calls, each on a new connection, with its retry schedule (5 tries over ~20 s).
      for (let i = 0; i < AGENT_CALLS; i++) {
        const client = new PluginRpcClient(run.agentPlugin);
        const request = validRequest(target.key, target.config) as {
          template: { inputs: { parameters: Array<{ value: string }> } };
        };
        request.template.inputs.parameters[0].value = `held-slots-${i}`;
        const outcome = await client
          .executeTemplate(JSON.stringify(request))
          .then((reply) => reply?.node?.phase ?? '{}')
          .catch((err: Error) => `error: ${err.message}`);
        const ms = Math.max(...client.calls.map((c) => c.ms));
        slowest = Math.max(slowest, ms);
        tries.push(
          `${outcome} after ${client.calls.length} ${client.calls.length === 1 ? 'try' : 'tries'} (${ms} ms)`,
        );
      }
      const seconds = (performance.now() - started) / 1000;
      const memory = run.memory();
      lines.push(
        `front (${target.name}): a client holding ${FRONT_LIMITS.maxConnections} connections (${holder.opened} opened in all, reopened as the front closed them): ` +
          `${AGENT_CALLS} agent calls in ${seconds.toFixed(1)} s, ${tries.filter((t) => / after 1 try /.test(t)).length} answered on the first try (slowest ${slowest} ms); peak RSS ${mib(memory.peakMb)} (limit ${mib(limitMib(target))})`,
      );
      expect({
        crashes: run.crashes,
        calls: tries.filter((t) => !/^(Running|Pending|Succeeded) after 1 try /.test(t)),
        underLimit: memory.peakMb < limitMib(target),
      }).toEqual({ crashes: [], calls: [], underLimit: true });
    } finally {
      holder.stop();
      await run.close();
      await proxy.close();
    }
  }, 120_000);
});
