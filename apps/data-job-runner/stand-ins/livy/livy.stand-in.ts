import { hasBasic, Lifecycle, ProviderStandIn } from '@app/local-agent';
import type { LifecycleStep, StandInRequest, StandInResponse } from '@app/local-agent';

export type LivyVersion = '0.6' | '0.7' | '0.8';

export interface LivyBatch {
  id: number;
  name: string | null;
  /** The request body exactly as received (argument capture). */
  request: Record<string, unknown>;
  lifecycle: Lifecycle<string>;
  appId: string | null;
  log: string[];
}

export interface LivyStandInOptions {
  /** Basic auth (LDAP/Knox/HDInsight); none when unset. */
  username?: string;
  password?: string;
  /** livy.server.csrf-protection.enabled (default true). */
  csrf?: boolean;
  /** livy.server.session.state-retain.sec, in ms (default 600 000). */
  retainMs?: number;
  /** Spelling of the duplicate-name error (default 0.7). */
  version?: LivyVersion;
  /** Walk of every batch (default: starting, running, success); a step's message becomes a log line. */
  lifecycle?: Array<LifecycleStep<string>>;
}

const FIELDS = new Set([
  'file',
  'proxyUser',
  'className',
  'args',
  'jars',
  'pyFiles',
  'files',
  'driverMemory',
  'driverCores',
  'executorMemory',
  'executorCores',
  'numExecutors',
  'archives',
  'queue',
  'name',
  'conf',
]);
const FINAL = new Set(['success', 'dead', 'killed', 'error']);

const msg = (status: number, text: string): StandInResponse => ({ status, body: { msg: text } });

/** Jetty's error page, as Livy's servlet filters answer with `sendError`. */
export function jettyError(status: number, reason: string, path: string): StandInResponse {
  return {
    status,
    headers: { 'Content-Type': 'text/html;charset=iso-8859-1' },
    body:
      `<html>\n<head>\n<meta http-equiv="Content-Type" content="text/html;charset=ISO-8859-1"/>\n<title>Error ${status} ${reason}</title>\n</head>\n` +
      `<body><h2>HTTP ERROR ${status}</h2>\n<p>Problem accessing ${path}. Reason:\n<pre>    ${reason}</pre></p><hr>` +
      `<a href="http://eclipse.org/jetty">Powered by Jetty:// 9.3.24.v20180605</a><hr/>\n</body>\n</html>\n`,
  };
}

/**
 * Apache Livy's batch API: optional Basic auth, the X-Requested-By CSRF check (a Jetty HTML 400), 201 +
 * Location on create, unique batch names (the duplicate-name 400 in each version's spelling, which still uses
 * up an id), lookup by name, `{msg}` errors, DELETE killing and removing a batch, finished batches forgotten
 * after the retention window, and a restart without recovery that forgets everything and reuses ids.
 */
export class LivyStandIn extends ProviderStandIn {
  readonly batches: LivyBatch[] = [];
  /** Every batch ever created (argument capture survives DELETE and retention). */
  readonly created: LivyBatch[] = [];
  private nextId = 0;
  private readonly applications = new Map<string, Array<LifecycleStep<string>>>();

  constructor(private readonly options: LivyStandInOptions = {}) {
    super('livy', (req) => jettyError(404, 'Not Found', req.path));
    this.route(
      'POST',
      '/batches',
      this.guarded((req) => this.create(req)),
    )
      .route(
        'GET',
        '/batches',
        this.guarded((req) => this.list(req)),
      )
      .route(
        'GET',
        '/batches/:idOrName',
        this.guarded((req) => this.get(req)),
      )
      .route(
        'GET',
        '/batches/:id/state',
        this.guarded((req) => this.state(req)),
      )
      .route(
        'GET',
        '/batches/:id/log',
        this.guarded((req) => this.logOf(req)),
      )
      .route(
        'DELETE',
        '/batches/:id',
        this.guarded((req) => this.remove(req)),
      );
  }

  /** Batches of this application file walk these steps (instead of the stand-in's default). */
  addApplication(file: string, lifecycle: Array<LifecycleStep<string>>): this {
    this.applications.set(file, lifecycle);
    return this;
  }

  /** All batches ever created with this name. */
  createdNamed(name: string): LivyBatch[] {
    return this.created.filter((b) => b.name === name);
  }

  /** A Livy restart without session recovery: every batch is forgotten and ids start again at 0. */
  restartWithoutRecovery(): void {
    this.batches.length = 0;
    this.nextId = 0;
  }

  private guarded(
    handler: (req: StandInRequest) => StandInResponse,
  ): (req: StandInRequest) => StandInResponse {
    return (req) => {
      const { username, password } = this.options;
      if (username !== undefined && password !== undefined && !hasBasic(req, username, password)) {
        return {
          ...jettyError(401, 'Unauthorized', req.path),
          headers: { 'WWW-Authenticate': 'Basic realm="livy"' },
        };
      }
      if (
        this.options.csrf !== false &&
        !['GET', 'HEAD', 'OPTIONS'].includes(req.method) &&
        !req.headers['x-requested-by']
      ) {
        return jettyError(400, 'Missing Required Header for CSRF protection.', req.path);
      }
      this.expire();
      return handler(req);
    };
  }

  private expire(): void {
    const retain = this.options.retainMs ?? 600_000;
    for (let i = this.batches.length - 1; i >= 0; i--) {
      const ended = this.batches[i].lifecycle.endedAt;
      if (ended !== undefined && Date.now() - ended >= retain) this.batches.splice(i, 1);
    }
  }

  private duplicate(name: string, id: number): string {
    switch (this.options.version ?? '0.7') {
      case '0.6':
        return `Duplicate session name: Some(${name})`;
      case '0.7':
        return `Duplicate session name: Some(${name}) for session ${id}`;
      case '0.8':
        return `Rejected, Reason: Duplicate session name: Some(${name}) for session ${id}`;
    }
  }

  private create(req: StandInRequest): StandInResponse {
    const b = req.body;
    if (typeof b !== 'object' || b === null || Array.isArray(b))
      return msg(400, 'Rejected, Reason: invalid request body');
    const body = b as Record<string, unknown>;
    const unknown = Object.keys(body).find((k) => !FIELDS.has(k));
    if (unknown)
      return msg(
        400,
        `Unrecognized field "${unknown}" (class org.apache.livy.server.batch.CreateBatchRequest), not marked as ignorable`,
      );
    if (typeof body.file !== 'string' || body.file === '')
      return msg(400, 'requirement failed: File is required.');
    const id = this.nextId++;
    const name = typeof body.name === 'string' ? body.name : null;
    if (name !== null && this.batches.some((x) => x.name === name)) return msg(400, this.duplicate(name, id));
    const batch: LivyBatch = {
      id,
      name,
      request: structuredClone(body),
      lifecycle: new Lifecycle(
        this.applications.get(body.file) ??
          this.options.lifecycle ?? [{ state: 'starting' }, { state: 'running' }, { state: 'success' }],
      ),
      appId: null,
      log: ['stdout: ', '\nstderr: ', `INFO SparkSubmit: Submitting ${body.file}`],
    };
    this.batches.push(batch);
    this.created.push(batch);
    return { status: 201, headers: { Location: `/batches/${id}` }, body: this.view(batch) };
  }

  private find(idOrName: string): LivyBatch | undefined {
    // Since Livy 0.6 a non-numeric id is looked up by name.
    return /^\d+$/.test(idOrName)
      ? this.batches.find((b) => b.id === Number(idOrName))
      : this.batches.find((b) => b.name === idOrName);
  }

  private readStep(batch: LivyBatch): string {
    const step = batch.lifecycle.read();
    if (step.state !== 'starting' && step.state !== 'not_started')
      batch.appId ??= `application_1700000000000_${String(batch.id + 1).padStart(4, '0')}`;
    if (step.message && batch.log[batch.log.length - 1] !== step.message) batch.log.push(step.message);
    return step.state;
  }

  /** The batch as Livy shows it; `state` is the one a status read just returned (default: the current one). */
  private view(batch: LivyBatch, state = batch.lifecycle.state): Record<string, unknown> {
    return {
      id: batch.id,
      name: batch.name,
      owner: null,
      proxyUser: null,
      state,
      appId: batch.appId,
      appInfo: {
        driverLogUrl: batch.appId
          ? `http://nm-1:8042/node/containerlogs/container_${batch.appId.slice(12)}_01_000001/livy`
          : null,
        sparkUiUrl: batch.appId ? `http://rm:8088/proxy/${batch.appId}/` : null,
      },
      log: batch.log.slice(-10),
    };
  }

  private notFound(idOrName: string): StandInResponse {
    return msg(404, `Session '${idOrName}' not found.`);
  }

  private get(req: StandInRequest): StandInResponse {
    const batch = this.find(req.params.idOrName);
    if (!batch) return this.notFound(req.params.idOrName);
    return { body: this.view(batch, this.readStep(batch)) };
  }

  private state(req: StandInRequest): StandInResponse {
    const batch = this.find(req.params.id);
    if (!batch) return this.notFound(req.params.id);
    return { body: { id: batch.id, state: this.readStep(batch) } };
  }

  private logOf(req: StandInRequest): StandInResponse {
    const batch = this.find(req.params.id);
    if (!batch) return this.notFound(req.params.id);
    const size = Number(req.query.get('size') ?? 100);
    const total = batch.log.length;
    const from = req.query.has('from') ? Number(req.query.get('from')) : Math.max(0, total - size);
    return { body: { id: batch.id, from, total, log: batch.log.slice(from, from + size) } };
  }

  private list(req: StandInRequest): StandInResponse {
    const from = Number(req.query.get('from') ?? 0);
    const size = Number(req.query.get('size') ?? 100);
    return {
      body: {
        from,
        total: this.batches.length,
        sessions: this.batches.slice(from, from + size).map((b) => this.view(b)),
      },
    };
  }

  private remove(req: StandInRequest): StandInResponse {
    const batch = this.find(req.params.id);
    if (!batch) return this.notFound(req.params.id);
    if (!FINAL.has(batch.lifecycle.state)) batch.lifecycle.redirect([{ state: 'killed' }]);
    this.batches.splice(this.batches.indexOf(batch), 1);
    return msg(200, 'deleted');
  }
}
