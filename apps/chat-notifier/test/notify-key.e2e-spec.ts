import { executeArgs } from '@app/local-agent';
import { notify, outputs, slack, startSlackFixture, type SlackFixture } from './support.js';

describe('the notify key: one provider block; the 0.1.0 slack key is the same plugin', () => {
  let f: SlackFixture;
  beforeAll(async () => {
    f = await startSlackFixture();
  });
  afterAll(() => f.close());
  const posts = () => f.ws.slack.okCalls('chat.postMessage').length;

  it('notify: {slack: …} posts like slack: …, with the same outputs', async () => {
    const before = posts();
    const viaNotify = await f.h.execute(
      notify('slack', { channel: '#builds', text: 'via notify', key: 'a' }),
    );
    const viaSlack = await f.h.execute(slack({ channel: '#builds', text: 'via slack', key: 'a' }));
    expect(viaNotify.body.node?.phase).toBe('Succeeded');
    expect(Object.keys(outputs(viaNotify.body))).toEqual(Object.keys(outputs(viaSlack.body)));
    expect(posts() - before).toBe(2);
  });

  it('names fields from the notify body root, and keeps 0.1.0 messages for the slack key', async () => {
    const typo = await f.h.execute(notify('slack', { channel: '#builds', text: 'x', thredTs: '1.2' }));
    expect(typo.body.node?.message).toBe(
      'notify: invalid config: slack.thredTs: unknown field (did you mean "threadTs"?)',
    );
    const workspace = await f.h.execute(notify('slack', { channel: '#builds', text: 'x', workspace: 'ops' }));
    expect(workspace.body.node?.message).toBe(
      'notify: invalid config: slack.workspace: no Slack workspace "ops" for namespace argo (known: default (no workspace)); the admin adds one with SLACK_OPS_BOT_TOKEN',
    );
  });

  it('exactly one provider block: none, two, or an unknown one fail naming the problem', async () => {
    const none = await f.h.execute(executeArgs({ notify: {} }));
    expect(none.body.node?.message).toMatch(
      /^notify: invalid config: body: exactly one provider block is required \(slack.*\); got none$/,
    );
    const unknown = await f.h.execute(executeArgs({ notify: { slak: { channel: '#builds' } } }));
    expect(unknown.body.node?.message).toBe(
      'notify: invalid config: slak: unknown field (did you mean "slack"?)',
    );
  });
});
