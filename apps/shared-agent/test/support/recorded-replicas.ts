// Replicas as processes against one in-memory API server, each calling a plugin of its own that records every
// call: `quick` steps succeed at once, `slow` ones run (requeue 300 ms) until `finish` is set.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScriptedPlugin } from '@app/local-agent';
import { FakeApi } from './fake-api.js';
import { pluginTask, until, writeToken } from './agent-harness.js';
import { ReplicaProcess } from './replica-process.js';

export interface RecordedCall {
  replica: string;
  /** `<namespace>/<workflow>/<template name>`. */
  step: string;
  at: number;
  /** What `holderAt` answered when the call arrived. */
  holder: string;
}

export class RecordedReplicas {
  readonly calls: RecordedCall[] = [];
  finish = false;
  /** Who holds the shard of a TaskSet now (set by a test that checks calls against the Leases). */
  holderAt: (namespace: string, workflow: string) => string = () => '';
  private readonly replicas: ReplicaProcess[] = [];
  private readonly plugins: ScriptedPlugin[] = [];

  private constructor(
    readonly api: FakeApi,
    readonly dir: string,
  ) {}

  static async start(): Promise<RecordedReplicas> {
    const dir = mkdtempSync(join(tmpdir(), 'shared-agent-replicas-'));
    writeToken(dir, 'hello', 'token-hello');
    return new RecordedReplicas(await FakeApi.start(), dir);
  }

  async close(): Promise<void> {
    for (const r of this.replicas.splice(0)) {
      r.kill('SIGCONT');
      r.kill('SIGKILL');
    }
    await Promise.all(this.plugins.splice(0).map((p) => p.close()));
    await this.api.close();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** A replica (2 s Leases, patch 200 ms) reaching the API at `server` (default: directly). */
  async replica(
    identity: string,
    env: Record<string, string> = {},
    server = this.api.url,
  ): Promise<ReplicaProcess> {
    const plugin = await new ScriptedPlugin('token-hello', (body) => {
      const metadata = (body.workflow as { metadata: { name: string; namespace: string } }).metadata;
      const name = (body.template as { name: string }).name;
      this.calls.push({
        replica: identity,
        step: `${metadata.namespace}/${metadata.name}/${name}`,
        at: Date.now(),
        holder: this.holderAt(metadata.namespace, metadata.name),
      });
      return name === 'quick' || this.finish
        ? { body: '{"node":{"phase":"Succeeded"}}' }
        : { body: '{"node":{"phase":"Running","message":"working"},"requeue":"300ms"}' };
    }).start();
    this.plugins.push(plugin);
    const kubeconfig = join(this.dir, `kubeconfig-${identity}-${this.replicas.length}`);
    writeFileSync(kubeconfig, this.api.kubeconfig().replace(this.api.url, server));
    const replica = new ReplicaProcess(identity, {
      KUBECONFIG: kubeconfig,
      PLUGINS: 'none',
      AGENT_EXTERNAL_PLUGINS: `hello=${plugin.url}`,
      AGENT_PLUGIN_TOKEN_DIR: join(this.dir, 'tokens'),
      AGENT_LEASE_DURATION: '2s',
      ARGO_AGENT_PATCH_RATE: '200ms',
      ...env,
    });
    this.replicas.push(replica);
    return replica;
  }

  /** TaskSets named `<prefix>-<i>` with a step of each kind given (`quick`, `slow`), node `<wf>-<kind>`. */
  create(namespace: string, prefix: string, count: number, ...kinds: Array<'quick' | 'slow'>): string[] {
    const workflows = Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
    for (const wf of workflows)
      this.api.createTaskSet(
        namespace,
        wf,
        Object.fromEntries(kinds.map((kind) => [`${wf}-${kind}`, pluginTask({ hello: {} }, kind)])),
      );
    return workflows;
  }

  phase(namespace: string, wf: string, kind: 'quick' | 'slow'): string | undefined {
    return this.api.nodes(namespace, wf)[`${wf}-${kind}`]?.phase;
  }

  async allIn(
    what: string,
    namespace: string,
    workflows: string[],
    kind: 'quick' | 'slow',
    phase: string,
    timeoutMs = 20_000,
  ): Promise<void> {
    await until(what, () => workflows.every((wf) => this.phase(namespace, wf, kind) === phase), timeoutMs);
  }

  /** How many times each step was called, in the order of `workflows`. */
  callsOf(namespace: string, workflows: string[], kind: 'quick' | 'slow'): number[] {
    return workflows.map((wf) => this.calls.filter((c) => c.step === `${namespace}/${wf}/${kind}`).length);
  }

  /** The holders of the shard Leases 0..shards-1 of the set `prefix`. */
  holders(shards: number, prefix = 'shared-agent'): string[] {
    return Array.from({ length: shards }, (_, n) => this.holderOf(n, prefix));
  }

  holderOf(shard: number, prefix = 'shared-agent'): string {
    const lease = this.api.leaseList().find((l) => l.metadata.name === `${prefix}-shard-${shard}`);
    return (lease?.spec as { holderIdentity?: string } | undefined)?.holderIdentity ?? '';
  }
}
