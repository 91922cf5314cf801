import { credential, ProviderStandIn, type StandInRequest, type StandInResponse } from '@app/local-agent';
import { ApprovalScript } from '../approval-script.js';

export interface SnUser {
  sys_id: string;
  user_name: string;
  password?: string;
  /** OAuth access tokens of this user (Authorization: Bearer). */
  tokens: Set<string>;
}

type SnRecord = Record<string, string>;

/** The tables the stand-in holds, as a gate reads and writes them. */
const TABLES = ['change_request', 'sysapproval_approver', 'sys_journal_field'] as const;
type Table = (typeof TABLES)[number];

/** The fields each table has; a query on another field is ignored, as ServiceNow does by default. */
const FIELDS: Record<Table, string[]> = {
  change_request: [
    'sys_id',
    'number',
    'type',
    'state',
    'approval',
    'short_description',
    'description',
    'correlation_id',
    'correlation_display',
    'sys_created_on',
    'sys_created_by',
    'sys_updated_on',
  ],
  sysapproval_approver: ['sys_id', 'sysapproval', 'approver', 'state', 'sys_created_on', 'sys_updated_on'],
  sys_journal_field: ['sys_id', 'element_id', 'element', 'name', 'value', 'sys_created_on', 'sys_created_by'],
};

/** ServiceNow's error body. */
const error = (status: number, message: string, detail: string | null = null): StandInResponse => ({
  status,
  body: { error: { message, detail }, status: 'failure' },
});
const NO_RECORD = () =>
  error(404, 'No Record found', "Record doesn't exist or ACL restricts the record retrieval");

/**
 * ServiceNow's Table API (https://developer.servicenow.com, "Table API") for the calls an approval gate makes:
 * list records of change_request, sysapproval_approver and sys_journal_field with an encoded `sysparm_query`
 * (`field=value`, `fieldINa,b`, `ORDERBY`/`ORDERBYDESC`, joined by `^`; a condition on an unknown field is
 * ignored, as ServiceNow does unless `glide.invalid_query.returns_no_rows` is set), `sysparm_fields`,
 * `sysparm_limit`/`sysparm_offset` with a Link header (`first`, `prev`, `next`, `last`) and X-Total-Count; get,
 * create and update a change (a `work_notes` value becomes a journal entry). Basic auth or an OAuth bearer
 * token is checked (none or wrong: 401). Errors are `{error: {message, detail}, status: "failure"}`. Times are
 * `2026-06-07 10:00:00` UTC, a second later at least per change. A scripted approver (`script`) acts after a
 * change has been fetched by its sys_id a number of times (named by its number).
 */
export class ServicenowStandIn extends ProviderStandIn {
  readonly users = new Map<string, SnUser>();
  readonly tables: Record<Table, SnRecord[]> = {
    change_request: [],
    sysapproval_approver: [],
    sys_journal_field: [],
  };
  readonly script = new ApprovalScript();
  /** Largest sysparm_limit the stand-in honours; a test lowers it to see paging. */
  pageLimit = 10_000;
  private clock = 0;
  private ids = 0;
  private numbers = 30000;

  constructor() {
    super('servicenow', () => error(400, 'Requested URI does not represent any resource'));
    this.route('GET', '/api/now/table/:table', (req) =>
      this.authed(req, () => this.withTable(req, (table) => this.list(req, table))),
    )
      .route('GET', '/api/now/table/:table/:sysId', (req) =>
        this.authed(req, () =>
          this.withTable(req, (table) => {
            const record = this.tables[table].find((r) => r.sys_id === req.params.sysId);
            if (!record) return NO_RECORD();
            if (table === 'change_request') this.script.read(record.number!);
            return { body: { result: pick(record, req) } };
          }),
        ),
      )
      .route('POST', '/api/now/table/change_request', (req) =>
        this.authed(req, (user) => {
          const body = req.body as Record<string, unknown> | undefined;
          if (!body || typeof body !== 'object')
            return error(400, 'Exception while reading request', 'The payload is not valid JSON.');
          const change = this.open(user, stringFields(body));
          return { status: 201, body: { result: pick(change, req) } };
        }),
      )
      .route('PATCH', '/api/now/table/change_request/:sysId', (req) =>
        this.authed(req, (user) => {
          const change = this.change(req.params.sysId!);
          if (!change) return NO_RECORD();
          const { work_notes: note, ...rest } = stringFields((req.body ?? {}) as Record<string, unknown>);
          if (note) this.workNote(change, user, note);
          for (const [field, value] of Object.entries(rest))
            if (FIELDS.change_request.includes(field) && !field.startsWith('sys_')) change[field] = value;
          change.sys_updated_on = this.tick();
          return { body: { result: pick(change, req) } };
        }),
      );
  }

  /** A user; `sysId` fixes their sys_id (a demo's example names it). */
  addUser(userName: string, options: { password?: string; token?: string; sysId?: string } = {}): SnUser {
    const user: SnUser = {
      sys_id: options.sysId ?? this.sysId(),
      user_name: userName,
      password: options.password,
      tokens: new Set(options.token ? [options.token] : []),
    };
    this.users.set(userName, user);
    return user;
  }

  change(sysIdOrNumber: string): SnRecord | undefined {
    return this.tables.change_request.find((c) => c.sys_id === sysIdOrNumber || c.number === sysIdOrNumber);
  }

  /** `by` opens a change (New, approval not requested). */
  open(by: SnUser, fields: Record<string, string>): SnRecord {
    const at = this.tick();
    const change: SnRecord = {
      type: 'normal',
      short_description: '',
      description: '',
      correlation_id: '',
      correlation_display: '',
      ...Object.fromEntries(Object.entries(fields).filter(([f]) => FIELDS.change_request.includes(f))),
      sys_id: this.sysId(),
      number: `CHG00${this.numbers++}`,
      state: '-5',
      approval: 'not requested',
      sys_created_on: at,
      sys_created_by: by.user_name,
      sys_updated_on: at,
    };
    this.tables.change_request.push(change);
    return change;
  }

  /** The change's approval rules ask `approvers`: each gets a requested approval record; the change is in Assess. */
  requestApproval(change: SnRecord, approvers: SnUser[]): void {
    const at = this.tick();
    for (const approver of approvers)
      this.tables.sysapproval_approver.push({
        sys_id: this.sysId(),
        sysapproval: change.sys_id!,
        approver: approver.sys_id,
        state: 'requested',
        sys_created_on: at,
        sys_updated_on: at,
      });
    change.state = '-4';
    change.approval = 'requested';
  }

  /**
   * The approver sets their record (`approved`, `rejected`, or back to `requested`); the change's `approval`
   * follows as ServiceNow's "anyone approves" rule rolls it up: rejected if any is, else approved if any is.
   */
  answer(change: SnRecord, approver: SnUser, state: 'approved' | 'rejected' | 'requested'): void {
    const record = this.tables.sysapproval_approver.find(
      (r) => r.sysapproval === change.sys_id && r.approver === approver.sys_id,
    );
    if (!record) throw new Error(`${approver.user_name} has no approval on ${change.number}`);
    record.state = state;
    record.sys_updated_on = this.tick();
    const states = this.tables.sysapproval_approver
      .filter((r) => r.sysapproval === change.sys_id)
      .map((r) => r.state);
    change.approval = states.includes('rejected')
      ? 'rejected'
      : states.includes('approved')
        ? 'approved'
        : 'requested';
    if (change.approval === 'approved') change.state = '-3';
  }

  /** Someone cancels the change (state 4, Canceled). */
  cancel(change: SnRecord): void {
    change.state = '4';
    change.sys_updated_on = this.tick();
  }

  /** An admin deletes the change. */
  remove(change: SnRecord): void {
    this.tables.change_request.splice(this.tables.change_request.indexOf(change), 1);
  }

  workNote(change: SnRecord, by: SnUser, value: string): void {
    this.tables.sys_journal_field.push({
      sys_id: this.sysId(),
      element_id: change.sys_id!,
      element: 'work_notes',
      name: 'task',
      value,
      sys_created_on: this.tick(),
      sys_created_by: by.user_name,
    });
  }

  /** The next `times` calls on a path starting with `path` hit a rate limit rule: 429, Retry-After. */
  rateLimit(method: string, path: string, seconds: number, times = 1): void {
    this.server.faults.add(
      {
        kind: 'rate-limit',
        retryAfterSeconds: seconds,
        body: {
          error: { message: 'Too Many Requests', detail: 'Rate limit of 60 requests per hour exceeded' },
          status: 'failure',
        },
        headers: {
          'X-RateLimit-Limit': '60',
          'X-RateLimit-Reset': String(Math.floor(Date.now() / 1000) + seconds),
        },
      },
      { times, match: (r) => r.method === method && r.path.startsWith(path) },
    );
  }

  private authed(req: StandInRequest, run: (user: SnUser) => StandInResponse): StandInResponse {
    const basic = credential(req, 'Basic');
    const bearer = credential(req, 'Bearer');
    if (!basic && !bearer)
      return error(401, 'User Not Authenticated', 'Required to provide Auth information');
    let user: SnUser | undefined;
    if (bearer) user = [...this.users.values()].find((u) => u.tokens.has(bearer));
    else {
      const decoded = Buffer.from(basic!, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      const candidate = this.users.get(decoded.slice(0, colon));
      if (colon > 0 && candidate?.password !== undefined && candidate.password === decoded.slice(colon + 1))
        user = candidate;
    }
    return user ? run(user) : error(401, 'User is not authenticated', 'Required to provide Auth information');
  }

  private withTable(req: StandInRequest, run: (table: Table) => StandInResponse): StandInResponse {
    const table = req.params.table as Table;
    return TABLES.includes(table) ? run(table) : error(400, `Invalid table ${req.params.table}`);
  }

  private list(req: StandInRequest, table: Table): StandInResponse {
    const { conditions, order } = parseQuery(req.query.get('sysparm_query') ?? '', FIELDS[table]);
    const found = this.tables[table]
      .filter((r) => conditions.every((c) => c.values.includes(r[c.field] ?? '')))
      .sort((a, b) => (order ? order.dir * (a[order.field] ?? '').localeCompare(b[order.field] ?? '') : 0));
    const limit = Math.min(
      this.pageLimit,
      Math.max(1, Number(req.query.get('sysparm_limit') ?? 10_000) || 10_000),
    );
    const offset = Math.max(0, Number(req.query.get('sysparm_offset') ?? 0) || 0);
    const link = (at: number, rel: string) => {
      const query = new URLSearchParams(req.query);
      query.set('sysparm_offset', String(at));
      query.set('sysparm_limit', String(limit));
      return `<${this.url}${req.path}?${query}>;rel="${rel}"`;
    };
    const last = Math.max(0, Math.floor((found.length - 1) / limit) * limit);
    const links = [
      link(0, 'first'),
      ...(offset > 0 ? [link(Math.max(0, offset - limit), 'prev')] : []),
      ...(offset + limit < found.length ? [link(offset + limit, 'next')] : []),
      link(last, 'last'),
    ];
    return {
      body: { result: found.slice(offset, offset + limit).map((r) => pick(r, req)) },
      headers: { Link: links.join(','), 'X-Total-Count': String(found.length) },
    };
  }

  private sysId(): string {
    return (this.ids++).toString(16).padStart(32, 'a');
  }

  /** ServiceNow's times: `yyyy-MM-dd HH:mm:ss` UTC, whole seconds, one second later at least per change. */
  private tick(): string {
    this.clock = Math.max(this.clock + 1000, Math.floor(Date.now() / 1000) * 1000);
    return new Date(this.clock).toISOString().slice(0, 19).replace('T', ' ');
  }
}

/** An encoded query: `a=1^bINx,y^ORDERBYc`; conditions on fields the table lacks are dropped. */
function parseQuery(query: string, fields: string[]) {
  const conditions: Array<{ field: string; values: string[] }> = [];
  let order: { field: string; dir: 1 | -1 } | undefined;
  for (const part of query.split('^').filter((p) => p !== '')) {
    const sort = /^ORDERBY(DESC)?(\w+)$/.exec(part);
    if (sort) {
      order = { field: sort[2]!, dir: sort[1] ? -1 : 1 };
      continue;
    }
    const [, field, op, value] = /^(\w+?)(=|IN)(.*)$/.exec(part) ?? [];
    if (!field || !fields.includes(field)) continue;
    conditions.push({ field, values: op === 'IN' ? value!.split(',') : [value!] });
  }
  return { conditions, order };
}

/** The record with only `sysparm_fields` (all when absent). */
function pick(record: SnRecord, req: StandInRequest): SnRecord {
  const wanted = req.query.get('sysparm_fields');
  if (!wanted) return { ...record };
  return Object.fromEntries(wanted.split(',').map((f) => [f, record[f] ?? '']));
}

function stringFields(body: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(body).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])),
  );
}
