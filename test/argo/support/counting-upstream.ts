// The upstream of the replica suite: one server on HOST_ADDR that is both an executor plugin called by URL
// (`counter`, AGENT_EXTERNAL_PLUGINS) and an endpoint for HTTP templates, recording every request with its
// workflow and step. A plugin step `{counter: {step, hold: true}}` runs (Running, requeue 1s) until its workflow
// is released; every other step succeeds at its first call. A step is executed when it is answered Succeeded (a
// plugin that acts on completion acts then): answered Succeeded twice, it ran twice.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';

export const COUNTER_KEY = 'counter';

export interface CountedCall {
  kind: 'plugin' | 'http';
  namespace: string;
  workflow: string;
  step: string;
  at: number;
  /** The replica (pod name) whose token a plugin call carried; '' for an HTTP template's request. */
  replica: string;
  /** Who held the TaskSet's shard when a plugin call arrived (`holderOf`). */
  holder?: string;
  answered: 'Running' | 'Succeeded';
}

export interface CountingOptions {
  /** The replica whose plugin token this is, or undefined (answered 403). */
  callerOf(token: string): string | undefined;
  /** Who holds the shard of the call's TaskSet, as the replica that made it counts shards. */
  holderOf(call: Omit<CountedCall, 'holder' | 'answered'>): Promise<string>;
}

interface PluginBody {
  workflow?: { metadata?: { name?: string; namespace?: string } };
  template?: { plugin?: Record<string, { step?: string; hold?: boolean }> };
}

export class CountingUpstream {
  readonly calls: CountedCall[] = [];
  private readonly released = new Set<string>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(host: string, options: CountingOptions): Promise<CountingUpstream> {
    const upstreams: CountingUpstream[] = [];
    const server = createServer((req, res) => {
      upstreams[0]!.answer(req, options).then(
        ({ status, body }) => res.writeHead(status, { 'Content-Type': 'application/json' }).end(body),
        (err: Error) => res.writeHead(500).end(err.message),
      );
    });
    await new Promise<void>((r) => server.listen(0, host, r));
    upstreams.push(new CountingUpstream(server, `http://${host}:${(server.address() as AddressInfo).port}`));
    return upstreams[0]!;
  }

  /** The URL an HTTP template of the step calls (Argo fills in the workflow). */
  httpUrl(step: string): string {
    return `${this.url}/http/{{workflow.namespace}}/{{workflow.name}}/${step}`;
  }

  /** The held steps of these workflows succeed at their next call. */
  release(namespace: string, workflows: string[]): void {
    for (const wf of workflows) this.released.add(`${namespace}/${wf}`);
  }

  /** How many times the step was executed (answered Succeeded). */
  executions(namespace: string, workflow: string, step: string): number {
    return this.calls.filter(
      (c) =>
        c.namespace === namespace && c.workflow === workflow && c.step === step && c.answered === 'Succeeded',
    ).length;
  }

  /** Whether the step has been called at all. */
  called(namespace: string, workflow: string, step: string): boolean {
    return this.calls.some((c) => c.namespace === namespace && c.workflow === workflow && c.step === step);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }

  private async answer(
    req: IncomingMessage,
    options: CountingOptions,
  ): Promise<{ status: number; body: string }> {
    const http = /^\/http\/([^/]+)\/([^/]+)\/([^/?]+)/.exec(req.url ?? '');
    if (http) {
      await text(req);
      const [, namespace, workflow, step] = http as unknown as [string, string, string, string];
      this.calls.push({
        kind: 'http',
        namespace,
        workflow,
        step,
        at: Date.now(),
        replica: '',
        answered: 'Succeeded',
      });
      return { status: 200, body: '"counted"' };
    }
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const replica = token && options.callerOf(token);
    if (!replica) return { status: 403, body: '' };
    if (req.method !== 'POST' || req.url !== '/api/v1/template.execute') return { status: 404, body: '' };
    const body = JSON.parse(await text(req)) as PluginBody;
    const own = body.template?.plugin?.[COUNTER_KEY];
    if (!own) return { status: 200, body: '{}' };
    const call = {
      kind: 'plugin' as const,
      namespace: body.workflow?.metadata?.namespace ?? '',
      workflow: body.workflow?.metadata?.name ?? '',
      step: own.step ?? '',
      at: Date.now(),
      replica,
    };
    const holder = await options.holderOf(call);
    const done = !own.hold || this.released.has(`${call.namespace}/${call.workflow}`);
    this.calls.push({ ...call, holder, answered: done ? 'Succeeded' : 'Running' });
    return {
      status: 200,
      body: done
        ? '{"node":{"phase":"Succeeded","message":"counted"}}'
        : '{"node":{"phase":"Running","message":"held"},"requeue":"1s"}',
    };
  }
}
