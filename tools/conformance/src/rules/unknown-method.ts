import { excerpt } from '../excerpt.js';
import { fail, pass, type Rule } from '../rule.js';

export const unknownMethod: Rule = {
  id: 'unknown-method-404',
  name: 'an unknown RPC method is answered 404',
  severity: 'hygiene',
  stage: 'probe',
  why: 'the agent reads 404 as "method not implemented" and stops calling it for the workflow; any other status to a method a newer agent adds is a fatal error for the node',
  async run(ctx) {
    const e = await ctx.request({
      what: 'POST /api/v1/foo.bar with the right token',
      method: 'POST',
      path: '/api/v1/foo.bar',
      headers: { Authorization: ctx.authorization },
      body: '{}',
    });
    const evidence = [
      { what: e.what, status: e.status, body: excerpt(e.error ?? e.text, ctx.mask), ms: e.ms },
    ];
    if (e.status !== 404) return fail(`got ${e.status ?? e.error} instead of 404`, evidence);
    return pass('404', evidence);
  },
};
