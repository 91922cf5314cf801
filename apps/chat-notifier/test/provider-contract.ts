import { runWorkflow, type WorkflowResult, type WorkflowShape } from '@app/local-agent';
import { marshalExecuteTemplateArgs, PluginRpcClient, type AgentPlugin } from '@app/argo-agent';
import { notify as notifyRequest, startNotifier, type PluginFixture } from './support.js';

/** One provider's stand-in, as the shared e2e suite drives it. */
export interface ProviderUpstream {
  /** Sidecar env that points the plugin at the stand-in. */
  env: Record<string, string>;
  /** Messages the service holds (what a person would see). */
  sent(): number;
  /** The next send is answered 429 with this Retry-After. */
  rateLimitNextSend(retryAfterSeconds: number): void;
  close(): Promise<void>;
}

export interface ProviderUnderTest {
  /** The block name under `notify`. */
  provider: string;
  /** The outputs a send names (declared with valueFrom.supplied). */
  outputs: string[];
  start(): Promise<ProviderUpstream>;
  /** A valid body that sends one message. */
  body: Record<string, unknown>;
  /** The requeue after a 429 (the Retry-After, or the provider's own wait when the service sends none). */
  rateLimitRequeueMs?: number;
  /** The service gives no way to look after a restart: a second message is expected, and documented. */
  restartSendsAgain?: boolean;
  /** Env (from the stand-in's) with a credential the service rejects; `secrets` must appear nowhere. */
  badCredential: {
    env: (env: Record<string, string>) => Record<string, string>;
    secrets: string[];
    message: RegExp;
  };
}

/** A workflow with one plugin template under `notify: {<provider>: body}`; `step` decides how it is called. */
export function notifyWorkflow(
  provider: string,
  body: Record<string, unknown>,
  outputs: string[],
  step: Record<string, unknown> = {},
): WorkflowShape {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Workflow',
    metadata: { generateName: `${provider}-agent-` },
    spec: {
      entrypoint: 'main',
      templates: [
        { name: 'main', steps: [[{ name: 'notify', template: 'notify', ...step }]] },
        {
          name: 'notify',
          outputs: { parameters: outputs.map((name) => ({ name, valueFrom: { supplied: {} } })) },
          plugin: { notify: { [provider]: body } },
        },
      ],
    },
  };
}

/**
 * The promises every provider keeps, through the local agent (Argo's RPC client, requeues, retries): one
 * message for repeated, concurrent and restarted calls, a 429 waited out, a rejected credential that fails
 * the node with a hint and shows up nowhere.
 */
export function describeProviderContract(spec: ProviderUnderTest): void {
  describe(`${spec.provider}: one message per execution, through the local agent`, () => {
    let up: ProviderUpstream;
    let f: PluginFixture;
    let plugin: AgentPlugin;
    beforeEach(async () => {
      up = await spec.start();
      f = await startNotifier(up.env);
      plugin = { name: 'notifier', url: f.h.url, token: f.h.token };
    });
    afterEach(async () => {
      await f.close();
      await up.close();
    });
    const run = (
      step: Record<string, unknown> = {},
      onEvent?: Parameters<typeof runWorkflow>[1]['onEvent'],
    ): Promise<WorkflowResult> =>
      runWorkflow(notifyWorkflow(spec.provider, spec.body, spec.outputs, step), {
        plugins: [plugin],
        timeScale: 0.01,
        rpc: { backoffMs: 100 },
        onEvent,
      });

    it('16 concurrent identical calls (the agent has 16 workers) → one message, every node the same outputs', async () => {
      const result = await run({ withSequence: { count: '16' } });
      expect(result.phase).toBe('Succeeded');
      const nodes = result.nodes.filter((n) => n.type === 'Plugin');
      expect(nodes).toHaveLength(16);
      expect(new Set(nodes.map((n) => JSON.stringify(n.outputs))).size).toBe(1);
      expect(up.sent()).toBe(1);
    });

    it('20 repeated calls with the same body (requeues, agent retries) → one message, one reply', async () => {
      const body = marshalExecuteTemplateArgs(
        { name: 'wf-repeat', namespace: 'argo', uid: '6f1d1b7e-0000-4000-8000-000000000017' },
        notifyRequest(spec.provider, spec.body).template as unknown as Record<string, unknown>,
      );
      const client = new PluginRpcClient(plugin);
      const replies = [];
      for (let i = 0; i < 20; i++) replies.push(await client.executeTemplate(body));
      expect(up.sent()).toBe(1);
      expect(new Set(replies.map((r) => JSON.stringify(r))).size).toBe(1);
      expect(replies[0]?.node?.phase).toBe('Succeeded');
    });

    it(`a sidecar restart between two calls of a node → ${spec.restartSendsAgain ? 'a second message (documented)' : 'still one message'}`, async () => {
      const body = { ...spec.body, key: 'restart' };
      const first = await f.h.execute(notifyRequest(spec.provider, body));
      expect(first.body.node?.phase).toBe('Succeeded');
      await f.restart();
      const second = await f.h.execute(notifyRequest(spec.provider, body));
      expect(second.body.node?.phase).toBe('Succeeded');
      expect(up.sent()).toBe(spec.restartSendsAgain ? 2 : 1);
      if (!spec.restartSendsAgain) expect(second.body.node?.outputs).toEqual(first.body.node?.outputs);
    });

    it('429 with Retry-After: the node is requeued for it, then sends once', async () => {
      up.rateLimitNextSend(30);
      const requeues: number[] = [];
      const result = await run({}, (e) => {
        if (e.kind === 'requeue') requeues.push(e.requeueMs!);
      });
      expect(result.phase).toBe('Succeeded');
      expect(requeues).toEqual([spec.rateLimitRequeueMs ?? 30_000]);
      expect(up.sent()).toBe(1);
    });
  });

  describe(`${spec.provider}: a rejected credential`, () => {
    it('fails the node with a hint; the credential is in no output, node message or log line', async () => {
      const up = await spec.start();
      const f = await startNotifier({ ...up.env, ...spec.badCredential.env(up.env) });
      try {
        const result = await runWorkflow(notifyWorkflow(spec.provider, spec.body, spec.outputs), {
          plugins: [{ name: 'notifier', url: f.h.url, token: f.h.token }],
          timeScale: 0.01,
        });
        expect(result.phase).toBe('Failed');
        expect(result.node('notify')?.message).toMatch(spec.badCredential.message);
        const everything = JSON.stringify(result) + f.h.logText();
        for (const secret of spec.badCredential.secrets) expect(everything).not.toContain(secret);
        expect(up.sent()).toBe(0);
      } finally {
        await f.close();
        await up.close();
      }
    });
  });
}
