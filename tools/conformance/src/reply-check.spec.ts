import { checkReply } from './reply-check.js';
import type { Exchange } from './wire-tap.js';

const check = (text: string, error?: string) => {
  const exchange: Exchange = { purpose: 'own', label: 't', request: 1, status: 200, text, ms: 1, error };
  const r = checkReply(exchange);
  return r.ok ? 'ok' : `${r.rule}: ${r.problem}`;
};

describe('checkReply: a 200 body through the agent decoder, problems sorted by rule', () => {
  it.each([
    ['{}', 'ok'],
    ['null', 'ok'],
    ['{"node":{"phase":"Running"},"requeue":"30s"} trailing data is ignored', 'ok'],
    ['{"node":{"phase":"Succeeded","outputs":{"parameters":[{"name":"n","value":1.5}]}},"extra":true}', 'ok'],
    ['', 'json-body: EOF'],
    ['   ', 'json-body: EOF'],
    ['{"node":', 'json-body: unexpected EOF'],
    ['<html>oops</html>', 'json-body: invalid character'],
    ['[]', 'json-body: json: cannot unmarshal array into Go value of type executor.ExecuteTemplateReply'],
    ['{"node":{"phase":1}}', 'json-body: json: cannot unmarshal number into Go struct field'],
    [
      '{"node":{"phase":"Running"},"requeue":30}',
      'requeue-format: json: cannot unmarshal number into Go struct field ExecuteTemplateReply.requeue of type string',
    ],
    // Go matches keys case-insensitively: these are the same fields.
    ['{"Node":{"Phase":"Running"},"Requeue":"30s"}', 'ok'],
    ['{"Node":{"Phase":"Running"},"REQUEUE":30}', 'requeue-format: json: cannot unmarshal number'],
    ['\uFEFF{}', "json-body: invalid character 'ï' looking for beginning of value"],
    ['{"node":{"phase":"Running"},"requeue":""}', 'requeue-format: time: invalid duration ""'],
    ['{"node":{"phase":"Running"},"requeue":"30x"}', 'requeue-format: time: unknown unit "x"'],
  ])('%s → %s', (text, expected) => {
    expect(check(text)).toContain(expected);
  });

  it('a body cut short by the connection is a json-body problem', () => {
    expect(check('{"node":{"pha', 'connection closed mid-body')).toBe(
      'json-body: body cut short (connection closed mid-body)',
    );
  });
});
