import { runWorkflow, type WorkflowShape } from '@app/local-agent';
import { marshalExecuteTemplateArgs, PluginRpcClient, type AgentPlugin } from '@app/argo-agent';
import { slack, startSlackFixture, type SlackFixture } from './support.js';

/** A workflow with one plugin template; `steps` decides how it is called. */
function workflow(body: Record<string, unknown>, step: Record<string, unknown> = {}): WorkflowShape {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Workflow',
    metadata: { generateName: 'slack-agent-' },
    spec: {
      entrypoint: 'main',
      templates: [
        { name: 'main', steps: [[{ name: 'notify', template: 'notify', ...step }]] },
        {
          name: 'notify',
          outputs: {
            parameters: ['ts', 'channel', 'threadTs', 'permalink'].map((name) => ({
              name,
              valueFrom: { supplied: {} },
            })),
          },
          plugin: { slack: body },
        },
      ],
    },
  };
}

describe('slack plugin through the local agent (Argo RPC client, requeues, retries)', () => {
  let f: SlackFixture;
  let plugin: AgentPlugin;
  beforeEach(async () => {
    f = await startSlackFixture();
    plugin = { name: 'slack', url: f.h.url, token: f.h.token };
  });
  afterEach(() => f.close());
  const posts = () => f.ws.slack.okCalls('chat.postMessage').length;

  it('16 concurrent identical calls (the agent has 16 workers) → one message, every node the same outputs', async () => {
    const result = await runWorkflow(
      workflow({ channel: '#builds', text: 'fan-out' }, { withSequence: { count: '16' } }),
      { plugins: [plugin], timeScale: 0.01 },
    );
    expect(result.phase).toBe('Succeeded');
    const nodes = result.nodes.filter((n) => n.type === 'Plugin');
    expect(nodes).toHaveLength(16);
    expect(new Set(nodes.map((n) => JSON.stringify(n.outputs))).size).toBe(1);
    expect(posts()).toBe(1);
  });

  it('20 repeated calls with the same body (requeues, agent restarts) → one message, one reply', async () => {
    const body = marshalExecuteTemplateArgs(
      { name: 'wf-repeat', namespace: 'argo', uid: '6f1d1b7e-0000-4000-8000-000000000020' },
      slack({ channel: '#builds', text: 'repeated' }).template as unknown as Record<string, unknown>,
    );
    const client = new PluginRpcClient(plugin);
    const replies = [];
    for (let i = 0; i < 20; i++) replies.push(await client.executeTemplate(body));
    expect(posts()).toBe(1);
    expect(new Set(replies.map((r) => JSON.stringify(r))).size).toBe(1);
    expect(replies[0]?.node?.phase).toBe('Succeeded');
  });

  it('the sidecar restarts between two calls of a node → still one message', async () => {
    // The post goes through, then the permalink lookup keeps failing (the client's two quick retries too):
    // Running, and the agent will call again.
    f.ws.slack.httpError('chat.getPermalink', 503, 3);
    let restarted: Promise<void> | undefined;
    const result = await runWorkflow(workflow({ channel: '#builds', text: 'across a restart' }), {
      plugins: [plugin],
      timeScale: 0.01,
      rpc: { backoffMs: 100 },
      onEvent: (event) => {
        if (event.kind !== 'requeue' || restarted) return;
        plugin.url = 'http://127.0.0.1:9'; // the old container is gone: connection refused until the new one listens
        restarted = f.restart().then((h) => {
          plugin.url = h.url;
        });
      },
    });
    await restarted;
    expect(result.phase).toBe('Succeeded');
    expect(result.node('notify')?.calls).toBe(2);
    expect(posts()).toBe(1);
    expect(f.h.logs.some((l) => String(l.msg).includes('already posted its message'))).toBe(true);
    expect(result.node('notify')?.message).toMatch(/\(found in Slack after a restart; not sent again\)$/);
  });

  it('429 with a long Retry-After: the node is requeued for it, then posts once', async () => {
    f.ws.slack.rateLimit('chat.postMessage', 30);
    const events: number[] = [];
    const result = await runWorkflow(workflow({ channel: '#builds', text: 'rate limited' }), {
      plugins: [plugin],
      timeScale: 0.01,
      onEvent: (e) => e.kind === 'requeue' && events.push(e.requeueMs!),
    });
    expect(result.phase).toBe('Succeeded');
    expect(events).toEqual([30_000]); // the agent waits 30 s × timeScale
    expect(posts()).toBe(1);
  });

  it('429 with a short Retry-After: waited out inside the call, one call, one message', async () => {
    f.ws.slack.rateLimit('chat.postMessage', 1);
    const result = await runWorkflow(workflow({ channel: '#builds', text: 'short limit' }), {
      plugins: [plugin],
      timeScale: 0.01,
    });
    expect(result.phase).toBe('Succeeded');
    expect(result.node('notify')?.calls).toBe(1);
    expect(posts()).toBe(1);
  });

  it('an unknown field fails the node naming the field', async () => {
    const result = await runWorkflow(workflow({ channel: '#builds', text: 'x', mention: 'here' }), {
      plugins: [plugin],
      timeScale: 0.01,
    });
    expect(result.phase).toBe('Failed');
    expect(result.node('notify')?.message).toBe(
      'slack: invalid config: mention: unknown field (did you mean "mentions"?)',
    );
  });
});

describe('slack plugin through the local agent: a rejected token', () => {
  it('fails the node with a hint; the token is in no output, node message or log line', async () => {
    const token = 'xoxb-9999999999-8888888888888-revokedrevokedrevoked';
    const f = await startSlackFixture({ SLACK_BOT_TOKEN: token });
    try {
      const result = await runWorkflow(workflow({ channel: '#builds', text: 'x' }), {
        plugins: [{ name: 'slack', url: f.h.url, token: f.h.token }],
        timeScale: 0.01,
      });
      expect(result.phase).toBe('Failed');
      expect(result.node('notify')?.message).toMatch(
        /the bot token of workspace "default" was rejected \(invalid_auth\): check the Secret behind SLACK_BOT_TOKEN/,
      );
      const everything = JSON.stringify(result) + f.h.logText();
      expect(everything).not.toContain(token);
      expect(everything).not.toContain(token.slice('xoxb-'.length));
    } finally {
      await f.close();
    }
  });
});
