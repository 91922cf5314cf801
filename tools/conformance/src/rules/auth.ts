import { randomBytes } from 'node:crypto';
import { EXECUTE_PATH } from '../context.js';
import { excerpt, plural } from '../excerpt.js';
import type { RawExchange } from '../raw-http.js';
import { fail, pass, type Evidence, type Rule } from '../rule.js';

const wrongToken = (): string => `conformance-wrong-${randomBytes(12).toString('hex')}`;

function evidence(e: RawExchange, mask: (s: string) => string): Evidence {
  return {
    what: e.what,
    status: e.status,
    body: excerpt(e.error ? `${e.error} ${e.text}` : e.text, mask),
    ms: e.ms,
  };
}

export const authExecute: Rule = {
  id: 'auth-execute',
  name: 'the execute path refuses a missing or wrong token with 403, before any work',
  severity: 'security',
  stage: 'probe',
  why: 'the agent sends Authorization: Bearer <token of this sidecar>; all sidecars of the agent pod share localhost, so the token is the only thing that keeps one plugin from driving another',
  async run(ctx) {
    const body = ctx.ownBody(ctx.workflow('auth'));
    const before = await ctx.count();
    const cases: Array<[string, string | undefined]> = [
      ['POST execute without Authorization', undefined],
      ['POST execute with a wrong bearer token', `Bearer ${wrongToken()}`],
      ['POST execute with an empty bearer token', 'Bearer '],
    ];
    const exchanges: RawExchange[] = [];
    for (const [what, authorization] of cases) {
      const headers: Record<string, string> =
        authorization === undefined ? {} : { Authorization: authorization };
      exchanges.push(await ctx.request({ what, method: 'POST', path: EXECUTE_PATH, headers, body }));
    }
    const effects = await ctx.effectsSince(before);
    const shown = [...exchanges.map((e) => evidence(e, ctx.mask)), ...(effects ? [effects.evidence] : [])];
    const wrong = exchanges.filter((e) => e.status !== 403);
    if (wrong.length > 0) {
      return fail(
        `${plural(wrong.length, 'request')} without the right token got ${wrong.map((e) => e.status ?? e.error).join(', ')} instead of 403`,
        shown,
      );
    }
    if (effects && effects.delta !== 0) {
      return fail(
        '403 was answered, but the upstream saw side effects: the work ran before the token check',
        shown,
      );
    }
    return pass(
      `403 for a missing, a wrong and an empty token${effects ? ', no upstream side effect' : ''}`,
      shown,
    );
  },
};

export const authEveryPath: Rule = {
  id: 'auth-every-path',
  name: 'every other path and method refuses a missing or wrong token with 403',
  severity: 'security',
  stage: 'probe',
  why: 'the token check must come before routing: a health or debug route without it is reachable by every container of the agent pod',
  async run(ctx) {
    const cases: Array<[string, string, string | undefined]> = [
      ['GET', EXECUTE_PATH, undefined],
      ['PUT', EXECUTE_PATH, undefined],
      ['DELETE', EXECUTE_PATH, undefined],
      ['POST', '/api/v1/foo.bar', undefined],
      ['POST', '/api/v1/foo.bar', `Bearer ${wrongToken()}`],
      ['GET', '/', undefined],
      ['GET', '/healthz', undefined],
    ];
    const exchanges: RawExchange[] = [];
    for (const [method, path, authorization] of cases) {
      const what = `${method} ${path} ${authorization ? 'with a wrong token' : 'without a token'}`;
      const headers: Record<string, string> = authorization ? { Authorization: authorization } : {};
      const body = method === 'POST' || method === 'PUT' ? '{}' : undefined;
      exchanges.push(await ctx.request({ what, method, path, headers, body }));
    }
    const shown = exchanges.map((e) => evidence(e, ctx.mask));
    const wrong = exchanges.filter((e) => e.status !== 403);
    if (wrong.length > 0) {
      return fail(
        `${wrong.map((e) => `${e.method} ${e.path} → ${e.status ?? e.error}`).join('; ')} (expected 403 before routing)`,
        shown,
      );
    }
    return pass(
      `403 on ${plural(exchanges.length, 'unauthenticated request')} to other paths and methods`,
      shown,
    );
  },
};

const DECLARED = 32 * 1024 * 1024;
const SENT = 64 * 1024;

export const authBeforeBody: Rule = {
  id: 'auth-before-body',
  name: 'a large body without the right token is answered before it is read',
  severity: 'security',
  stage: 'probe',
  why: 'a sidecar that reads (and buffers) a body before checking the token can be pushed out of its memory limit by anyone in the pod; the agent pod then loses the plugin',
  async run(ctx) {
    const waitMs = Math.max(2000, 5000 * ctx.target.timeScale);
    const probes: Array<[string, string, string | undefined]> = [
      ['POST execute without a token, 32 MiB announced, 64 KiB sent', EXECUTE_PATH, undefined],
      [
        'POST /api/v1/foo.bar with a wrong token, 32 MiB announced, 64 KiB sent',
        '/api/v1/foo.bar',
        `Bearer ${wrongToken()}`,
      ],
    ];
    const results = [];
    for (const [what, path, authorization] of probes) {
      results.push(
        await ctx.bigBody({ what, path, authorization, declaredBytes: DECLARED, sentBytes: SENT, waitMs }),
      );
    }
    const shown = results.map((r) => ({
      ...evidence(r, ctx.mask),
      note: `${r.bytesSent} body bytes sent${r.status !== undefined && r.status !== 403 ? ' (the status is judged by auth-every-path)' : ''}`,
    }));
    const waited = results.filter((r) => r.status === undefined);
    if (waited.length > 0) {
      return fail(
        `no reply within ${waitMs} ms while the rest of the body was withheld (${waited.map((r) => r.error).join('; ')}): the plugin reads the body before checking the token`,
        shown,
      );
    }
    return pass(
      `answered (${results.map((r) => r.status).join(', ')}) after the headers and ${SENT / 1024} KiB of a ${DECLARED / 1024 / 1024} MiB body`,
      shown,
    );
  },
};
