import { excerpt, plural } from '../excerpt.js';
import { fail, pass, type Evidence, type Rule } from '../rule.js';

export const noSecretInReply: Rule = {
  id: 'no-secret-in-reply',
  name: "no secret (--secret-env values, the agent token) in any reply or in the plugin's output",
  severity: 'security',
  stage: 'judge',
  why: 'node messages and outputs are stored in the Workflow status and shown in the UI and CLI to everyone who can read workflows; sidecar logs are collected by the cluster',
  async run(ctx) {
    const { scanner } = ctx;
    const found: Evidence[] = [];
    const leaked = new Set<string>();
    let replies = 0;
    for (const e of [...ctx.exchanges, ...ctx.raw]) {
      replies++;
      const names = scanner.find(e.text);
      names.forEach((n) => leaked.add(n));
      if (names.length > 0) {
        const what = 'purpose' in e ? `${e.purpose}: ${e.label}` : e.what;
        found.push({
          what,
          status: e.status,
          body: excerpt(e.text, (t) => scanner.mask(t), 200),
          note: `contains ${names.join(', ')}`,
        });
      }
    }
    const output = ctx.launched?.output();
    if (output) {
      const names = scanner.find(output);
      names.forEach((n) => leaked.add(n));
      if (names.length > 0) {
        const line = output.split('\n').find((l) => scanner.find(l).length > 0) ?? '';
        found.push({
          what: "the plugin's output",
          body: excerpt(line, (t) => scanner.mask(t), 200),
          note: `contains ${names.join(', ')}`,
        });
      }
    }
    const checked = scanner.names.join(', ');
    const unchecked = scanner.tooShort.length ? ` (too short to check: ${scanner.tooShort.join(', ')})` : '';
    if (found.length > 0) {
      return fail(`${[...leaked].join(', ')} found in ${plural(found.length, 'place')}`, found);
    }
    return pass(
      `${plural(replies, 'reply', 'replies')}${output !== undefined ? ' and the output' : ''} free of ${checked}${unchecked}`,
    );
  },
};
