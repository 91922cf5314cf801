import { runWorkflow, type WorkflowShape } from '@app/local-agent';
import { startDiscordDemo, type DiscordDemoServer } from '../demo/discord.js';
import { describeProviderContract } from './provider-contract.js';
import { notify, outputs, startNotifier, type PluginFixture } from './support.js';

const OUTPUTS = ['id', 'channel', 'thread'];
const BAD_TOKEN = 'wrongwrongwrongwrong-token-0000000000';

describeProviderContract({
  provider: 'discord',
  outputs: OUTPUTS,
  body: { text: 'Build 7 passed', status: 'succeeded' },
  restartSendsAgain: true,
  async start() {
    const demo = await startDiscordDemo();
    return {
      env: demo.env,
      sent: () => demo.discord.in(demo.builds.id).length,
      rateLimitNextSend: (seconds) => demo.discord.rateLimitExecute(seconds),
      close: () => demo.close(),
    };
  },
  badCredential: {
    // The admin pasted a webhook URL whose token was regenerated since.
    env: (env) => ({ DISCORD_WEBHOOK_URL: env.DISCORD_WEBHOOK_URL.replace(/[^/]+$/, BAD_TOKEN) }),
    secrets: [BAD_TOKEN],
    message:
      /^discord: POST \/ → 401 Unauthorized: Invalid Webhook Token \(code 50027\): webhook "default" was refused: its URL is wrong or was regenerated; the admin copies it again into DISCORD_WEBHOOK_URL$/,
  },
});

/** A forum post, a reply in its thread with a file, then the first message edited to the final status. */
const forumConversation: WorkflowShape = {
  apiVersion: 'argoproj.io/v1alpha1',
  kind: 'Workflow',
  metadata: { generateName: 'discord-forum-' },
  spec: {
    entrypoint: 'main',
    templates: [
      {
        name: 'main',
        steps: [
          [{ name: 'open', template: 'open' }],
          [
            {
              name: 'reply',
              template: 'reply',
              arguments: {
                parameters: [{ name: 'thread', value: '{{steps.open.outputs.parameters.thread}}' }],
              },
            },
          ],
          [
            {
              name: 'close',
              template: 'close',
              arguments: {
                parameters: [
                  { name: 'thread', value: '{{steps.open.outputs.parameters.thread}}' },
                  { name: 'id', value: '{{steps.open.outputs.parameters.id}}' },
                ],
              },
            },
          ],
        ],
      },
      {
        name: 'open',
        outputs: { parameters: OUTPUTS.map((name) => ({ name, valueFrom: { supplied: {} } })) },
        plugin: {
          notify: {
            discord: { webhook: 'forum', threadName: 'Release 1.4.2', text: 'Deploying', status: 'running' },
          },
        },
      },
      {
        name: 'reply',
        inputs: { parameters: [{ name: 'thread' }] },
        plugin: {
          notify: {
            discord: {
              webhook: 'forum',
              thread: '{{inputs.parameters.thread}}',
              text: 'migrations applied',
              file: { filename: 'migrations.log', content: '12 migrations' },
            },
          },
        },
      },
      {
        name: 'close',
        inputs: { parameters: [{ name: 'thread' }, { name: 'id' }] },
        plugin: {
          notify: {
            discord: {
              webhook: 'forum',
              thread: '{{inputs.parameters.thread}}',
              update: '{{inputs.parameters.id}}',
              status: 'succeeded',
              title: 'Deployed 1.4.2',
              fields: [
                { name: 'Environment', value: 'production' },
                { name: 'Duration', value: '3m 12s' },
              ],
            },
          },
        },
      },
    ],
  },
};

describe('discord: message, embed colours, forum post and thread, edit, file, mentions', () => {
  let demo: DiscordDemoServer;
  let f: PluginFixture;
  beforeAll(async () => {
    demo = await startDiscordDemo();
    f = await startNotifier(demo.env);
  });
  afterAll(async () => {
    await f.close();
    await demo.close();
  });

  it('a forum post, a reply with a file in its thread, then the first message edited to its final status', async () => {
    const result = await runWorkflow(forumConversation, {
      plugins: [{ name: 'notifier', url: f.h.url, token: f.h.token }],
      timeScale: 0.01,
    });
    expect(result.phase).toBe('Succeeded');
    const thread = result.node('open')!.outputs!.parameters!.find((p) => p.name === 'thread')!.value!;
    expect(demo.discord.threads.get(thread)).toMatchObject({
      parentId: demo.forum.id,
      name: 'Release 1.4.2',
    });
    const [first, reply] = demo.discord.in(thread);
    expect(demo.discord.in(thread)).toHaveLength(2);
    expect(reply.attachments).toEqual([
      expect.objectContaining({ filename: 'migrations.log', content: '12 migrations' }),
    ]);
    expect(first.edited_timestamp).not.toBeNull();
    expect(first.content).toBe('\u2705 **Succeeded**');
    expect(first.embeds).toEqual([
      {
        title: 'Deployed 1.4.2',
        color: 0x2eb67d,
        fields: [
          { name: 'Environment', value: 'production', inline: true },
          { name: 'Duration', value: '3m 12s', inline: true },
        ],
      },
    ]);
    expect(result.node('close')?.message).toBe(`updated message ${first.id} (webhook forum)`);
  });

  it('a message in a thread of the channel; outputs name the message and the thread', async () => {
    const reply = await f.h.execute(
      notify('discord', { thread: demo.deploysThread.id, text: 'step 2 of 3' }),
    );
    const posted = demo.discord.in(demo.deploysThread.id).at(-1)!;
    expect(outputs(reply.body)).toEqual({
      id: posted.id,
      channel: demo.deploysThread.id,
      thread: demo.deploysThread.id,
    });
  });

  it('only the listed mentions ping (allowed_mentions); @everyone in the text does not', async () => {
    await f.h.execute(
      notify('discord', {
        text: 'tell @everyone',
        mentions: '<@123456789012345678>, <@&876543210987654321>',
      }),
    );
    const message = demo.discord.in(demo.builds.id).at(-1)!;
    expect(message.content).toBe('<@123456789012345678> <@&876543210987654321> tell @everyone');
    expect(message).toMatchObject({
      mentions: [{ id: '123456789012345678' }],
      mention_roles: ['876543210987654321'],
      mention_everyone: false,
    });
  });

  it('failures an author can act on: a thread of another channel, a message it did not send, a forum without threadName', async () => {
    const run = async (body: Record<string, unknown>) =>
      (await f.h.execute(notify('discord', body))).body.node?.message;
    expect(await run({ thread: '123456789012345678', text: 'x' })).toMatch(
      /^discord: POST \/ → 404 Not Found: Unknown Channel \(code 10003\): webhook "default" was deleted, or the message or thread is not in its channel/,
    );
    expect(await run({ update: '123456789012345678', text: 'x' })).toMatch(/Unknown Message \(code 10008\)/);
    expect(await run({ webhook: 'forum', text: 'x' })).toMatch(
      /→ 400 Bad Request: Webhooks posted to forum channels must have a thread_name or thread_id \(code 220001\)$/,
    );
    expect(await run({ text: 'x', webhook: 'ops' })).toBe(
      'notify: invalid config: discord.webhook: no Discord webhook "ops" for namespace argo (known: default (no webhook), forum); the admin adds one with DISCORD_OPS_WEBHOOK_URL',
    );
    expect(JSON.stringify(f.h.logs)).not.toContain(demo.webhookToken);
  });
});
