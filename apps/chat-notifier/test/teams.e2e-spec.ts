import { startTeamsDemo, type TeamsDemo } from '../demo/teams.js';
import { describeProviderContract } from './provider-contract.js';
import { notify, startNotifier, type PluginFixture } from './support.js';

const STALE_SIG = 'stale0signature0of0a0recreated0flow00000';

describeProviderContract({
  provider: 'teams',
  outputs: [],
  body: { title: 'Build 7', text: 'all tests passed', status: 'succeeded' },
  restartSendsAgain: true,
  async start() {
    const demo = await startTeamsDemo();
    return {
      env: demo.env,
      sent: () => demo.flow.posted.length,
      rateLimitNextSend: (seconds) => demo.teams.throttleNext(seconds),
      close: () => demo.close(),
    };
  },
  badCredential: {
    env: (env) => ({ TEAMS_WEBHOOK_URL: env.TEAMS_WEBHOOK_URL.replace(/sig=[^&]+/, `sig=${STALE_SIG}`) }),
    secrets: [STALE_SIG],
    message:
      /^teams: POST \/ → 401 Unauthorized: The request must be authenticated only by Shared Access scheme\. \(DirectApiAuthorizationRequired\): webhook "default" was refused: its URL is wrong or its flow was recreated; the admin copies the flow's URL again into TEAMS_WEBHOOK_URL$/,
  },
});

describe('teams: an Adaptive Card in the status style, facts and @mentions', () => {
  let demo: TeamsDemo;
  let f: PluginFixture;
  beforeAll(async () => {
    demo = await startTeamsDemo();
    f = await startNotifier(demo.env);
  });
  afterAll(async () => {
    await f.close();
    await demo.close();
  });

  it('the card the flow posts: status container, title, text, FactSet, mention entities', async () => {
    const reply = await f.h.execute(
      notify('teams', {
        title: 'Nightly ETL failed',
        text: 'load step: 3 retries',
        status: 'Error',
        fields: [{ name: 'Workflow', value: 'argo/nightly-etl-x' }],
        mentions: 'alice@example.com',
      }),
    );
    expect(reply.body.node).toEqual({
      phase: 'Succeeded',
      message: 'posted an Adaptive Card through Teams webhook default (Teams gives no message id)',
    });
    expect(demo.flow.failedRuns).toEqual([]);
    expect(demo.flow.posted.at(-1)).toEqual({
      $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
      type: 'AdaptiveCard',
      version: '1.4',
      body: [
        {
          type: 'Container',
          style: 'attention',
          bleed: true,
          items: [
            { type: 'TextBlock', text: '\u274C Failed', weight: 'Bolder', color: 'attention' },
            { type: 'TextBlock', text: 'Nightly ETL failed', size: 'Medium', weight: 'Bolder', wrap: true },
          ],
        },
        { type: 'TextBlock', text: 'load step: 3 retries', wrap: true },
        { type: 'FactSet', facts: [{ title: 'Workflow', value: 'argo/nightly-etl-x' }] },
        { type: 'TextBlock', text: '<at>alice@example.com</at>', wrap: true },
      ],
      msteams: {
        width: 'Full',
        entities: [
          {
            type: 'mention',
            text: '<at>alice@example.com</at>',
            mentioned: { id: 'alice@example.com', name: 'alice@example.com' },
          },
        ],
      },
    });
  });

  it('no threads or edits through a webhook: those need the bot (channel or conversation)', async () => {
    expect(
      (await f.h.execute(notify('teams', { text: 'x', update: '1700000000000' }))).body.node?.message,
    ).toBe(
      'notify: invalid config: teams.update: needs channel (or conversation): edits go through the bot, not a webhook',
    );
    expect(demo.flow.posted).toHaveLength(1);
  });
});
