import { startGoogleChatDemo, type GoogleChatDemo } from '../demo/google-chat.js';
import { describeProviderContract } from './provider-contract.js';
import { notify, outputs, startNotifier, type PluginFixture } from './support.js';

describeProviderContract({
  provider: 'googleChat',
  outputs: ['id', 'thread', 'space'],
  body: { text: 'Build 7 passed', status: 'succeeded', title: 'Build 7' },
  // Google sends no Retry-After: the kit's first backoff.
  rateLimitRequeueMs: 5_000,
  async start() {
    const demo = await startGoogleChatDemo();
    return {
      env: demo.env,
      sent: () => demo.chat.in(demo.space).length,
      rateLimitNextSend: () => demo.chat.rateLimitNext(),
      close: () => demo.close(),
    };
  },
  badCredential: {
    env: (env) => ({
      GOOGLE_CHAT_WEBHOOK_URL: env.GOOGLE_CHAT_WEBHOOK_URL.replace(
        /token=[^&]+/,
        'token=stale-token-0000000000000000',
      ),
    }),
    secrets: ['stale-token-0000000000000000'],
    message:
      /^google chat: POST \/messages → 401 Unauthorized: Request had invalid authentication credentials\..* \(UNAUTHENTICATED\): webhook "default" was refused: it was deleted or its URL is wrong; the admin copies it again into GOOGLE_CHAT_WEBHOOK_URL$/,
  },
});

describe('google chat: cards in the status colour, threads by key and by name, mentions', () => {
  let demo: GoogleChatDemo;
  let f: PluginFixture;
  beforeAll(async () => {
    demo = await startGoogleChatDemo();
    f = await startNotifier(demo.env);
  });
  afterAll(async () => {
    await f.close();
    await demo.close();
  });

  it('a card: the status symbol in the header, a coloured status line, fields as decorated text', async () => {
    const reply = await f.h.execute(
      notify('googleChat', {
        title: 'Deployed 1.4.2',
        text: 'api <v2> is live',
        status: 'Failed',
        fields: [{ name: 'Environment', value: 'production' }],
        mentions: 'users/123456789012, all',
      }),
    );
    const message = demo.chat.in(demo.space).at(-1)!;
    expect(outputs(reply.body)).toEqual({
      id: message.name,
      thread: message.thread.name,
      space: `spaces/${demo.space.id}`,
    });
    expect(message.text).toBe('<users/123456789012> <users/all>');
    expect(message.cardsV2).toEqual([
      {
        cardId: 'argo-notification',
        card: {
          header: { title: '\u274C Deployed 1.4.2', subtitle: 'Failed' },
          sections: [
            {
              widgets: [
                { textParagraph: { text: '<font color="#E01E5A"><b>\u274C Failed</b></font>' } },
                { textParagraph: { text: 'api &lt;v2&gt; is live' } },
                { decoratedText: { topLabel: 'Environment', text: 'production', wrapText: true } },
              ],
            },
          ],
        },
      },
    ]);
  });

  it('a thread key gathers messages into one thread; the thread output replies by name', async () => {
    const first = outputs(
      (await f.h.execute(notify('googleChat', { text: 'started', thread: 'wf-release-7' }))).body,
    );
    const second = outputs(
      (await f.h.execute(notify('googleChat', { text: 'tests passed', thread: 'wf-release-7' }))).body,
    );
    const third = outputs(
      (await f.h.execute(notify('googleChat', { text: 'done', thread: first.thread }))).body,
    );
    expect(new Set([first.thread, second.thread, third.thread]).size).toBe(1);
    expect(demo.chat.in(demo.space).filter((m) => m.thread.name === first.thread)).toHaveLength(3);
  });

  it('a webhook that is not configured names the variable', async () => {
    expect((await f.h.execute(notify('googleChat', { text: 'x', webhook: 'ops' }))).body.node?.message).toBe(
      'notify: invalid config: googleChat.webhook: no Google Chat webhook "ops" for namespace argo (known: default (no webhook)); the admin adds one with GOOGLE_CHAT_OPS_WEBHOOK_URL',
    );
  });
});
