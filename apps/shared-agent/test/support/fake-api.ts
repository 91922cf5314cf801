// A Kubernetes API server in memory, with what the shared agent uses of one: WorkflowTaskSets (list, watch,
// get, merge patch of the status), Leases (list by label, create, update with the resourceVersion check, merge
// patch, delete) and Secrets (get). A stand-in for the unit-level tests; the real API server is in test/argo.
// Like Argo's controller, it can mark a TaskSet completed once every task is final.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isFinalPhase } from '@app/contract';

type Obj = {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    labels?: Record<string, string>;
    ownerReferences?: Array<{ kind: string; uid: string; name: string }>;
  };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
  data?: Record<string, string>;
};

interface Event {
  rv: number;
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  object: Obj;
  /** The object before this change (what a watch that it leaves by its labels is sent). */
  previous?: Obj;
}

export interface Fault {
  status: number;
  reason?: string;
  message: string;
}

export class FakeApi {
  readonly url: string;
  private rv = 100;
  private readonly taskSets = new Map<string, Obj>();
  private readonly leases = new Map<string, Obj>();
  private readonly secrets = new Map<string, Obj>();
  /** Workflows by namespace/name: only their node phases, which a new owner of a TaskSet reads. */
  private readonly workflows = new Map<string, Obj>();
  private readonly events: Event[] = [];
  private readonly watchers = new Set<{ res: ServerResponse; ns?: string; match: (o: Obj) => boolean }>();
  /** Status patches answered with these faults, in order, before any is applied. */
  readonly patchFaults: Fault[] = [];
  /** Every status patch applied: TaskSet key and the nodes it wrote. */
  readonly patches: Array<{ key: string; nodes: Record<string, unknown> }> = [];
  /** Requests seen: `METHOD path`. */
  readonly requests: string[] = [];
  /**
   * A TaskSet whose tasks are all final is labelled completed, as the controller labels it once its workflow
   * is over (these tests' workflows end with their last task).
   */
  autoComplete = true;

  private constructor(
    private readonly server: Server,
    port: number,
  ) {
    this.url = `http://127.0.0.1:${port}`;
  }

  static async start(): Promise<FakeApi> {
    const handlers: FakeApi[] = [];
    const server = createServer((req, res) => handlers[0]!.handle(req, res));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    handlers.push(new FakeApi(server, (server.address() as AddressInfo).port));
    return handlers[0]!;
  }

  async close(): Promise<void> {
    for (const w of this.watchers) w.res.end();
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }

  /** A kubeconfig for this server (plain HTTP, no credentials), as a file's text. */
  kubeconfig(namespace = 'agents'): string {
    return [
      'apiVersion: v1',
      'kind: Config',
      'current-context: fake',
      'clusters:',
      `- {name: fake, cluster: {server: "${this.url}"}}`,
      'users:',
      '- {name: fake, user: {token: fake}}',
      'contexts:',
      `- {name: fake, context: {cluster: fake, user: fake, namespace: ${namespace}}}`,
    ].join('\n');
  }

  // ---- what the tests do, as the controller or an admin would ----

  createTaskSet(
    namespace: string,
    name: string,
    tasks: Record<string, unknown>,
    nodes: Record<string, unknown> = {},
  ): void {
    const object: Obj = {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'WorkflowTaskSet',
      metadata: {
        name,
        namespace,
        uid: `ts-${name}-${this.rv}`,
        labels: {},
        ownerReferences: [{ kind: 'Workflow', uid: `wf-${name}-uid`, name }],
      },
      spec: { tasks },
      status: { nodes },
    };
    this.store('taskset', object, 'ADDED');
  }

  /** Adds tasks to a TaskSet, as the controller does when more steps become ready. */
  addTasks(namespace: string, name: string, tasks: Record<string, unknown>): void {
    const object = structuredClone(this.taskSets.get(`${namespace}/${name}`)!);
    object.spec = { tasks: { ...(object.spec?.tasks as object), ...tasks } };
    this.store('taskset', object, 'MODIFIED');
  }

  deleteTaskSet(namespace: string, name: string): void {
    const object = this.taskSets.get(`${namespace}/${name}`);
    if (!object) return;
    this.taskSets.delete(`${namespace}/${name}`);
    this.emit('DELETED', { ...object, metadata: { ...object.metadata, resourceVersion: String(++this.rv) } });
  }

  taskSet(namespace: string, name: string): Obj | undefined {
    return this.taskSets.get(`${namespace}/${name}`);
  }

  nodes(
    namespace: string,
    name: string,
  ): Record<string, { phase?: string; message?: string; outputs?: unknown }> {
    return (this.taskSet(namespace, name)?.status?.nodes ?? {}) as Record<string, { phase?: string }>;
  }

  setSecret(namespace: string, name: string, data: Record<string, string>): void {
    this.secrets.set(`${namespace}/${name}`, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name, namespace },
      data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
    });
  }

  /** The Workflow's node phases (the controller updates the Workflow after it has cleared the TaskSet). */
  setWorkflowNodes(namespace: string, name: string, nodes: Record<string, { phase: string }>): void {
    this.workflows.set(`${namespace}/${name}`, {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Workflow',
      metadata: { name, namespace, uid: `wf-${name}-uid` },
      status: { nodes },
    });
  }

  /**
   * What `argo stop` / `argo terminate` and then the controller do (operator.go): spec.shutdown set; the stopped
   * nodes' results and tasks cleared from the TaskSet, which is labelled completed once no task is left; only
   * then (persistUpdates patches the TaskSet before it updates the Workflow) the Workflow's nodes failed with
   * "Stopped with strategy '<strategy>'".
   */
  async stopWorkflow(
    namespace: string,
    name: string,
    strategy: 'Stop' | 'Terminate',
    nodeIds: string[],
  ): Promise<void> {
    const key = `${namespace}/${name}`;
    const workflow = (): Obj => ({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Workflow',
      metadata: { name, namespace, uid: `wf-${name}-uid` },
      spec: { shutdown: strategy },
      status: { nodes: { ...(this.workflows.get(key)?.status?.nodes as object) } },
    });
    this.workflows.set(key, workflow());
    this.clearTasks(namespace, name, nodeIds);
    await new Promise((r) => setTimeout(r, 300));
    const message = `Stopped with strategy '${strategy}'`;
    const stopped = workflow();
    for (const id of nodeIds)
      (stopped.status!.nodes as Record<string, unknown>)[id] = { phase: 'Failed', message };
    this.workflows.set(key, stopped);
  }

  /**
   * Removes results from a TaskSet's status, the first of the controller's two patches for fulfilled nodes
   * (removeCompletedTaskSetStatus): the tasks stay in the spec until the second.
   */
  clearResults(namespace: string, name: string, nodeIds: string[]): void {
    const object = structuredClone(this.taskSets.get(`${namespace}/${name}`)!);
    const nodes = { ...(object.status?.nodes as Record<string, unknown>) };
    for (const id of nodeIds) delete nodes[id];
    object.status = { nodes };
    this.store('taskset', object, 'MODIFIED');
  }

  /**
   * Removes tasks and their results from a TaskSet, as the controller does with fulfilled nodes: the results by
   * one patch of the status, then the tasks by a patch of the spec, which labels the TaskSet completed once no
   * task is left.
   */
  clearTasks(namespace: string, name: string, nodeIds: string[]): void {
    this.clearResults(namespace, name, nodeIds);
    const object = structuredClone(this.taskSets.get(`${namespace}/${name}`)!);
    const tasks = { ...(object.spec?.tasks as Record<string, unknown>) };
    for (const id of nodeIds) delete tasks[id];
    object.spec = { tasks };
    if (Object.keys(tasks).length === 0)
      object.metadata.labels = { ...object.metadata.labels, 'workflows.argoproj.io/completed': 'true' };
    this.store('taskset', object, 'MODIFIED');
  }

  /** The Workflow's labels (the creator labels the Argo Server sets from the submitter's token). */
  setWorkflowLabels(namespace: string, name: string, labels: Record<string, string>): void {
    const key = `${namespace}/${name}`;
    if (!this.workflows.has(key)) this.setWorkflowNodes(namespace, name, {});
    const workflow = this.workflows.get(key)!;
    workflow.metadata = { ...workflow.metadata, labels };
  }

  leaseList(): Obj[] {
    return [...this.leases.values()];
  }

  // ---- the API ----

  private store(kind: 'taskset' | 'lease', object: Obj, type: Event['type']): Obj {
    object.metadata.resourceVersion = String(++this.rv);
    const key = `${object.metadata.namespace}/${object.metadata.name}`;
    if (kind === 'lease') {
      this.leases.set(key, object);
      return object;
    }
    const previous = this.taskSets.get(key);
    this.taskSets.set(key, object);
    this.emit(type, object, previous);
    return object;
  }

  private emit(type: Event['type'], object: Obj, previous?: Obj): void {
    const event: Event = {
      rv: Number(object.metadata.resourceVersion),
      type,
      object: structuredClone(object),
      previous: previous && structuredClone(previous),
    };
    this.events.push(event);
    for (const w of this.watchers) this.send(w, event);
  }

  private send(w: { res: ServerResponse; ns?: string; match: (o: Obj) => boolean }, event: Event): void {
    if (w.ns && event.object.metadata.namespace !== w.ns) return;
    let type = event.type;
    let object = event.object;
    if (type !== 'DELETED' && !w.match(event.object)) {
      // Leaving the selector reads as a deletion to the watcher, of the object as it was before the change (the
      // API server's watch cache sends the previous object: a TaskSet labelled completed still has its tasks).
      type = 'DELETED';
      if (event.previous && w.match(event.previous)) object = event.previous;
    }
    w.res.write(`${JSON.stringify({ type, object })}\n`);
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', this.url);
      this.requests.push(`${req.method} ${url.pathname}`);
      const text = Buffer.concat(chunks).toString('utf8');
      const body = text ? (JSON.parse(text) as Obj) : undefined;
      try {
        this.route(req.method ?? 'GET', url, body, res);
      } catch (err) {
        reply(res, 500, status(500, 'InternalError', String(err)));
      }
    });
  }

  private route(method: string, url: URL, body: Obj | undefined, res: ServerResponse): void {
    const p = url.pathname.split('/').filter(Boolean);
    // /apis/argoproj.io/v1alpha1[/namespaces/<ns>]/workflowtasksets[/<name>[/status]]
    if (p[0] === 'apis' && p[1] === 'argoproj.io') {
      const ns = p[3] === 'namespaces' ? p[4] : undefined;
      const rest = ns ? p.slice(5) : p.slice(3);
      if (rest[0] === 'workflows' && method === 'GET' && rest[1] && !rest[2]) {
        const workflow = this.workflows.get(`${ns}/${rest[1]}`);
        return workflow
          ? reply(res, 200, workflow)
          : reply(res, 404, status(404, 'NotFound', `workflows.argoproj.io "${rest[1]}" not found`));
      }
      if (rest[0] !== 'workflowtasksets') return reply(res, 404, status(404, 'NotFound', 'no such resource'));
      const name = rest[1];
      if (!name && method === 'GET') {
        const match = selector(url.searchParams.get('labelSelector') ?? '');
        if (url.searchParams.get('watch') === '1') {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          const w = { res, ns, match };
          const from = Number(url.searchParams.get('resourceVersion') ?? '0');
          for (const e of this.events) if (e.rv > from) this.send(w, e);
          this.watchers.add(w);
          res.on('close', () => this.watchers.delete(w));
          return;
        }
        const items = [...this.taskSets.values()].filter(
          (o) => (!ns || o.metadata.namespace === ns) && match(o),
        );
        return reply(res, 200, { metadata: { resourceVersion: String(this.rv) }, items });
      }
      const key = `${ns}/${name}`;
      const current = this.taskSets.get(key);
      if (!current)
        return reply(res, 404, status(404, 'NotFound', `workflowtasksets.argoproj.io "${name}" not found`));
      if (method === 'GET') return reply(res, 200, current);
      if (method === 'PATCH' && rest[2] === 'status') {
        const fault = this.patchFaults.shift();
        if (fault) return reply(res, fault.status, status(fault.status, fault.reason ?? '', fault.message));
        const nodes = (body?.status?.nodes ?? {}) as Record<string, unknown>;
        this.patches.push({ key, nodes });
        const next = structuredClone(current);
        const merged = { ...((next.status?.nodes ?? {}) as Record<string, unknown>) };
        for (const [id, node] of Object.entries(nodes)) {
          if (node === null) delete merged[id];
          else merged[id] = node;
        }
        next.status = { nodes: merged };
        const tasks = Object.keys((next.spec?.tasks ?? {}) as object);
        if (
          this.autoComplete &&
          tasks.length > 0 &&
          tasks.every((id) => isFinalPhase((merged[id] as { phase?: string } | undefined)?.phase))
        )
          next.metadata.labels = { ...next.metadata.labels, 'workflows.argoproj.io/completed': 'true' };
        return reply(res, 200, this.store('taskset', next, 'MODIFIED'));
      }
      return reply(res, 405, status(405, 'MethodNotAllowed', method));
    }
    // /apis/coordination.k8s.io/v1/namespaces/<ns>/leases[/<name>]
    if (p[0] === 'apis' && p[1] === 'coordination.k8s.io') {
      const ns = p[4]!;
      const name = p[6];
      const key = `${ns}/${name}`;
      const current = name ? this.leases.get(key) : undefined;
      if (!name && method === 'GET') {
        const match = selector(url.searchParams.get('labelSelector') ?? '');
        const items = [...this.leases.values()].filter((o) => o.metadata.namespace === ns && match(o));
        return reply(res, 200, {
          metadata: { resourceVersion: String(this.rv) },
          items: structuredClone(items),
        });
      }
      if (!name && method === 'POST') {
        const k = `${ns}/${body!.metadata.name}`;
        if (this.leases.has(k))
          return reply(
            res,
            409,
            status(409, 'AlreadyExists', `leases "${body!.metadata.name}" already exists`),
          );
        body!.metadata.namespace = ns;
        return reply(res, 201, this.store('lease', body!, 'ADDED'));
      }
      if (!current) return reply(res, 404, status(404, 'NotFound', `leases "${name}" not found`));
      if (method === 'GET') return reply(res, 200, current);
      if (method === 'DELETE') {
        this.leases.delete(key);
        return reply(res, 200, status(200, '', 'deleted'));
      }
      if (method === 'PUT') {
        if (body!.metadata.resourceVersion !== current.metadata.resourceVersion)
          return reply(
            res,
            409,
            status(
              409,
              'Conflict',
              `Operation cannot be fulfilled on leases "${name}": the object has been modified`,
            ),
          );
        body!.metadata.namespace = ns;
        return reply(res, 200, this.store('lease', body!, 'MODIFIED'));
      }
      if (method === 'PATCH') {
        const next = structuredClone(current);
        next.spec = { ...next.spec, ...(body?.spec ?? {}) };
        return reply(res, 200, this.store('lease', next, 'MODIFIED'));
      }
    }
    // /api/v1/namespaces/<ns>/secrets/<name>
    if (p[0] === 'api' && p[4] === 'secrets' && method === 'GET') {
      const secret = this.secrets.get(`${p[3]}/${p[5]}`);
      return secret
        ? reply(res, 200, secret)
        : reply(res, 404, status(404, 'NotFound', `secrets "${p[5]}" not found`));
    }
    reply(res, 404, status(404, 'NotFound', `${method} ${url.pathname}`));
  }
}

function status(code: number, reason: string, message: string): object {
  return { kind: 'Status', apiVersion: 'v1', status: 'Failure', message, reason, code };
}

function reply(res: ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/** A label selector of `k=v`, `k!=v`, `k`, `!k` terms. */
function selector(text: string): (o: Obj) => boolean {
  const terms = text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)
    .map((t): ((labels: Record<string, string>) => boolean) => {
      if (t.startsWith('!')) return (l) => !(t.slice(1) in l);
      const ne = t.indexOf('!=');
      if (ne > 0) return (l) => l[t.slice(0, ne)] !== t.slice(ne + 2);
      const eq = t.indexOf('=');
      if (eq > 0) return (l) => l[t.slice(0, eq)] === t.slice(eq + 1);
      return (l) => t in l;
    });
  return (o) => terms.every((term) => term(o.metadata.labels ?? {}));
}
