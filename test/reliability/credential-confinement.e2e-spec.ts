import { EXECUTE_TEMPLATE_PATH } from '@app/contract';
import { StandInServer } from '@app/local-agent';
import { pathsOf, validRequest } from './support/bad-requests.js';
import { exampleBodies } from './support/example-bodies.js';
import { launch } from './support/plugin-run.js';
import { keepAliveAgent, sendRaw } from './support/raw-http.js';
import { report, size } from './support/report.js';
import { SecretSweep } from './support/secret-sweep.js';
import { coverageLine, discoverApps } from './support/targets.js';

/**
 * A workflow body must not be able to send the admin's credentials anywhere but the upstreams the admin
 * configured. A second stand-in ("evil", another port on 127.0.0.1) records every call; every string or number
 * field of every example body of the app (and the workflow's name and namespace) gets each spelling of "go to
 * the evil host" an URL parser might honour; the plugin is called like the agent would (until the node is
 * final, at most 4 calls). The evil stand-in must record zero calls.
 */
const CALLS_PER_EXECUTION = 4;

const apps = discoverApps();
const sweep = new SecretSweep();
const lines: string[] = [];
let tried = 0;
let evilCalls = 0;

function hostileValues(hostPort: string): string[] {
  const [, port] = hostPort.split(':');
  return [
    `http://${hostPort}/x`,
    `https://${hostPort}/x`,
    `//${hostPort}/x`,
    `///${hostPort}/x`,
    `@${hostPort}`,
    `x@${hostPort}`,
    `x:y@${hostPort}/x`,
    hostPort,
    `http:%2F%2F${hostPort}%2Fx`,
    `%2F%2F${hostPort}%2Fx`,
    `%252F%252F${hostPort}`,
    `..%2F..%2F..%2F..%2F`,
    `../../../../x`,
    `\\\\${hostPort}\\x`,
    `/\\${hostPort}/x`,
    `?@${hostPort}`,
    `#@${hostPort}`,
    `%40${hostPort}`,
    `http://2130706433:${port}/x`,
    `http://[::ffff:127.0.0.1]:${port}/x`,
    `http://${hostPort}\u0000/x`,
    `\r\nHost: ${hostPort}\r\n`,
  ];
}

/** `body` with the value at `path` replaced. */
function replaced(body: unknown, path: Array<string | number>, value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let node = copy;
  for (const p of path.slice(0, -1)) node = node[p] as Record<string | number, unknown>;
  node[path[path.length - 1]] = value;
  return copy;
}

describe('credential confinement: no body field can send a request to a host the admin did not configure', () => {
  afterAll(() => {
    report(
      coverageLine('confinement', {
        targets: apps.targets,
        skipped: [...apps.skipped, 'probe (no upstream)'],
      }),
    );
    report(
      `confinement: ${apps.targets.length} plugins, ${tried} executions with a hostile value in every string/number field of every example body and in the workflow name/namespace; evil stand-in calls: ${evilCalls}; secrets: ${sweep.summary()}`,
    );
    lines.forEach((l) => report(`  ${l}`));
    expect(sweep.check()).toEqual([]);
  });

  it.each(apps.targets.map((t) => t.name))(
    '%s',
    async (name) => {
      const target = apps.targets.find((t) => t.name === name)!;
      const evil = new StandInServer('evil', () => ({ status: 200, body: { ok: true } }));
      await evil.start();
      const run = await launch(target, { sweep, env: { CALL_DEADLINE: '2s' } });
      const agent = keepAliveAgent(8);
      const phases = new Map<string, number>();
      try {
        const values = hostileValues(new URL(evil.url).host);
        const bodies = [target.config, ...exampleBodies(name, target.key)];
        const cases: Array<{ request: unknown; field: string }> = [];
        for (const [b, body] of bodies.entries()) {
          const leaves = pathsOf(body).filter((p) => {
            const v = p.reduce<unknown>((n, s) => (n as Record<string | number, unknown>)?.[s], body);
            return p.length > 0 && (typeof v === 'string' || typeof v === 'number');
          });
          for (const leaf of leaves)
            for (const value of values)
              cases.push({
                request: validRequest(target.key, replaced(body, leaf, value)),
                field: `body ${b} ${leaf.join('.')}`,
              });
        }
        for (const field of ['name', 'namespace'])
          for (const value of values) {
            const request = validRequest(target.key, target.config) as {
              workflow: { metadata: Record<string, string> };
            };
            request.workflow.metadata[field] = value;
            cases.push({ request, field: `workflow.metadata.${field}` });
          }
        cases.forEach((c, i) => {
          const r = c.request as { template: { inputs: { parameters: Array<{ value: string }> } } };
          r.template.inputs.parameters[0].value = `confinement-${i}`; // a distinct execution each
        });
        let next = 0;
        const lane = async (): Promise<void> => {
          while (next < cases.length) {
            const { request } = cases[next++];
            for (let call = 0; call < CALLS_PER_EXECUTION; call++) {
              const outcome = await sendRaw(
                run.url,
                {
                  method: 'POST',
                  path: EXECUTE_TEMPLATE_PATH,
                  headers: { Authorization: `Bearer ${run.token}` },
                  body: JSON.stringify(request),
                },
                { timeoutMs: 10_000, agent },
              );
              if (outcome.kind === 'reply') sweep.collect(`${name} confinement reply`, outcome.text);
              const phase =
                outcome.kind === 'reply' && outcome.status === 200
                  ? ((JSON.parse(outcome.text) as { node?: { phase?: string } }).node?.phase ?? '{}')
                  : `status ${outcome.kind === 'reply' ? outcome.status : outcome.code}`;
              if (call === CALLS_PER_EXECUTION - 1 || (phase !== 'Running' && phase !== 'Pending')) {
                phases.set(phase, (phases.get(phase) ?? 0) + 1);
                break;
              }
            }
          }
        };
        await Promise.all(Array.from({ length: 8 }, lane));
        tried += cases.length;
        evilCalls += evil.calls.length;
        lines.push(
          `${name}: ${bodies.length} bodies × fields × ${values.length} spellings = ${cases.length} executions, final replies ${[...phases].map(([p, n]) => `${p}×${n}`).join(' ')}, evil calls ${evil.calls.length}`,
        );
        expect(
          evil.calls.map((c) => `${c.method} ${c.path} auth=${c.headers.authorization ? 'yes' : 'no'}`),
        ).toEqual([]);
        expect(run.crashes).toEqual([]);
      } finally {
        agent.destroy();
        await run.close();
        await evil.close();
      }
    },
    size(120_000, 600_000),
  );
});
