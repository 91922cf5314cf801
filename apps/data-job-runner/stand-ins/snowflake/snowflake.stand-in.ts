import { createHash, createPublicKey, randomUUID, verify, type KeyObject } from 'node:crypto';
import { credential, Lifecycle, ProviderStandIn } from '@app/local-agent';
import type { LifecycleStep, StandInRequest, StandInResponse } from '@app/local-agent';

/** A statement's walk: `running` steps, then `success`, `failed` (with `failure`) or, on cancel, `cancelled`. */
export type SnowflakeState = 'running' | 'success' | 'failed' | 'cancelled';

export interface SnowflakeScript {
  /** Statements containing this text follow this script. */
  match: string;
  lifecycle?: Array<LifecycleStep<SnowflakeState>>;
  /** Rows of the result (each a list of column values as text). */
  rows?: string[][];
  /** What a `failed` statement reports. */
  failure?: { code: string; sqlState: string; message: string };
}

export interface SnowflakeStatement {
  handle: string;
  requestId: string;
  /** The body as received (argument capture). */
  request: Record<string, unknown>;
  lifecycle: Lifecycle<SnowflakeState>;
  script?: SnowflakeScript;
  createdOn: number;
  cancelled: boolean;
}

export interface SnowflakeStandInOptions {
  /** The account and user as registered (the JWT's `sub` is `ACCOUNT.USER`, upper case). */
  account: string;
  user: string;
  /** The user's RSA_PUBLIC_KEY. */
  publicKey: KeyObject | string;
  lifecycle?: Array<LifecycleStep<SnowflakeState>>;
  /** Rows per result partition (the real API cuts at about 10 MB). */
  partitionRows?: number;
}

const BODY_FIELDS = new Set([
  'statement',
  'timeout',
  'database',
  'schema',
  'warehouse',
  'role',
  'bindings',
  'parameters',
]);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const error = (
  status: number,
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
): StandInResponse => ({
  status,
  body: { code, message, ...extra },
});

/** The public key's fingerprint as Snowflake shows it (RSA_PUBLIC_KEY_FP). */
export function snowflakeFingerprint(key: KeyObject): string {
  const publicKey = key.type === 'public' ? key : createPublicKey(key);
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return `SHA256:${createHash('sha256').update(der).digest('base64')}`;
}

const decode = (part: string): Record<string, unknown> | undefined => {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
};

/**
 * Snowflake SQL API v2: key-pair JWT auth (RS256 signature checked with the user's registered public key,
 * `iss` `ACCOUNT.USER.SHA256:<fingerprint>`, `sub` `ACCOUNT.USER`, at most an hour long, not expired), the
 * `X-Snowflake-Authorization-Token-Type: KEYPAIR_JWT` header, `{code, message}` error bodies, async execution
 * (202 QueryStatus, 200 ResultSet, 422 QueryFailureStatus), `requestId` + `retry=true` recognising a resubmitted
 * request, result partitions (`?partition=n`, Link headers) and cancel.
 */
export class SnowflakeStandIn extends ProviderStandIn {
  readonly statements: SnowflakeStatement[] = [];
  readonly scripts: SnowflakeScript[] = [];
  private readonly publicKey: KeyObject;

  constructor(private readonly options: SnowflakeStandInOptions) {
    super('snowflake', () => error(404, '390404', 'The requested resource was not found.'));
    this.publicKey =
      typeof options.publicKey === 'string' ? createPublicKey(options.publicKey) : options.publicKey;
    this.route(
      'POST',
      '/api/v2/statements',
      this.authed((req) => this.submit(req)),
    )
      .route(
        'GET',
        '/api/v2/statements/:handle',
        this.authed((req) => this.status(req)),
      )
      .route(
        'POST',
        '/api/v2/statements/:handle/cancel',
        this.authed((req) => this.cancel(req)),
      );
  }

  script(script: SnowflakeScript): this {
    this.scripts.push(script);
    return this;
  }

  statementsMatching(text: string): SnowflakeStatement[] {
    return this.statements.filter((s) => String(s.request.statement).includes(text));
  }

  private get subject(): string {
    return `${this.options.account}.${this.options.user}`.toUpperCase();
  }

  private authed(
    handler: (req: StandInRequest) => StandInResponse,
  ): (req: StandInRequest) => StandInResponse {
    return (req) => {
      const token = credential(req, 'Bearer');
      if (token === undefined)
        return error(401, '390101', 'Authorization header not found in the request data.');
      if (String(req.headers['x-snowflake-authorization-token-type'] ?? '').toUpperCase() !== 'KEYPAIR_JWT')
        return error(401, '390303', 'Invalid OAuth access token.');
      const problem = this.jwtProblem(token);
      return problem ? error(401, '390144', `JWT token is invalid. [${problem}]`) : handler(req);
    };
  }

  /** Why a key-pair JWT is refused, or undefined when Snowflake would accept it. */
  private jwtProblem(token: string): string | undefined {
    const [header, claims, signature, ...rest] = token.split('.');
    if (!header || !claims || signature === undefined || rest.length > 0) return 'malformed';
    const h = decode(header);
    const c = decode(claims);
    if (h?.alg !== 'RS256' || !c) return 'malformed';
    if (
      !verify(
        'sha256',
        Buffer.from(`${header}.${claims}`),
        this.publicKey,
        Buffer.from(signature, 'base64url'),
      )
    )
      return 'signature';
    if (c.sub !== this.subject) return 'subject';
    if (c.iss !== `${this.subject}.${snowflakeFingerprint(this.publicKey)}`) return 'issuer';
    const now = Math.floor(Date.now() / 1000);
    if (typeof c.iat !== 'number' || typeof c.exp !== 'number') return 'times';
    if (c.exp <= now) return 'expired';
    if (c.iat > now + 60 || c.exp - c.iat > 3600) return 'lifetime';
    return undefined;
  }

  private submit(req: StandInRequest): StandInResponse {
    const requestId = req.query.get('requestId') ?? randomUUID();
    if (!UUID.test(requestId)) return error(400, '391902', `Invalid requestId: ${requestId}`);
    if (req.query.get('retry') === 'true') {
      const seen = this.statements.find((s) => s.requestId === requestId);
      if (seen) return this.view(seen);
    }
    const body = req.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      return error(400, '391920', 'Unable to parse the request body.');
    const b = body as Record<string, unknown>;
    const unknown = Object.keys(b).find((k) => !BODY_FIELDS.has(k));
    if (unknown !== undefined)
      return error(400, '391920', `Unrecognized field "${unknown}" in the request body.`);
    if (typeof b.statement !== 'string' || b.statement.trim() === '')
      return error(400, '391920', 'Statement is required.');
    if (b.bindings !== undefined && !validBindings(b.bindings))
      return error(400, '391920', 'Invalid bindings: each must be {"type": ..., "value": ...}.');
    const script = this.scripts.find((s) => (b.statement as string).includes(s.match));
    const statement: SnowflakeStatement = {
      handle: randomUUID(),
      requestId,
      request: structuredClone(b),
      lifecycle: new Lifecycle(
        script?.lifecycle ?? this.options.lifecycle ?? [{ state: 'running' }, { state: 'success' }],
      ),
      script,
      createdOn: Date.now(),
      cancelled: false,
    };
    this.statements.push(statement);
    return this.view(statement, req.query.get('async') === 'true');
  }

  private find(req: StandInRequest): SnowflakeStatement | StandInResponse {
    return (
      this.statements.find((s) => s.handle === req.params.handle) ??
      error(422, '000709', `Statement ${req.params.handle} not found`, {
        sqlState: '02000',
        statementHandle: req.params.handle,
      })
    );
  }

  private status(req: StandInRequest): StandInResponse {
    const s = this.find(req);
    if (!('handle' in s)) return s;
    s.lifecycle.read();
    const partition = Number(req.query.get('partition') ?? 0);
    return this.view(s, true, Number.isInteger(partition) && partition >= 0 ? partition : 0);
  }

  private cancel(req: StandInRequest): StandInResponse {
    const s = this.find(req);
    if (!('handle' in s)) return s;
    if (s.lifecycle.finished)
      return error(422, '000709', 'Statement already finished; nothing to cancel.', {
        sqlState: '02000',
        statementHandle: s.handle,
      });
    s.cancelled = true;
    s.lifecycle.redirect([{ state: 'cancelled' }]);
    return {
      body: {
        code: '000604',
        sqlState: '57014',
        message: 'successfully canceled',
        statementHandle: s.handle,
        statementStatusUrl: `/api/v2/statements/${s.handle}`,
      },
    };
  }

  private view(s: SnowflakeStatement, asynchronous = true, partition = 0): StandInResponse {
    const statusUrl = `/api/v2/statements/${s.handle}`;
    const step = s.lifecycle.peek();
    const common = { statementHandle: s.handle, statementStatusUrl: statusUrl, createdOn: s.createdOn };
    switch (step.state) {
      case 'running':
        return {
          status: 202,
          body: {
            code: '333334',
            message: asynchronous
              ? 'Asynchronous execution in progress. Use provided query id to perform query monitoring and management.'
              : 'Statement is still running.',
            ...common,
          },
        };
      case 'cancelled':
        return {
          status: 422,
          body: { code: '000604', sqlState: '57014', message: 'SQL execution canceled', ...common },
        };
      case 'failed': {
        const f = s.script?.failure ?? {
          code: '100132',
          sqlState: 'P0000',
          message: step.message ?? 'JavaScript execution error',
        };
        return { status: 422, body: { ...f, ...common } };
      }
      case 'success':
        return this.resultSet(s, partition, common);
    }
  }

  private resultSet(
    s: SnowflakeStatement,
    partition: number,
    common: Record<string, unknown>,
  ): StandInResponse {
    const rows = s.script?.rows ?? [['Statement executed successfully.']];
    const size = this.options.partitionRows ?? 1000;
    const partitions = Math.max(1, Math.ceil(rows.length / size));
    if (partition >= partitions)
      return error(422, '391908', `Invalid partition number: ${partition}`, { sqlState: '22023' });
    const data = rows.slice(partition * size, (partition + 1) * size);
    const link = (n: number, rel: string) => `</api/v2/statements/${s.handle}?partition=${n}>; rel="${rel}"`;
    const headers = {
      Link: [
        link(0, 'first'),
        ...(partition + 1 < partitions ? [link(partition + 1, 'next')] : []),
        link(partitions - 1, 'last'),
      ].join(','),
    };
    if (partition > 0) return { headers, body: { data } };
    const columns = rows[0]?.length ?? 1;
    return {
      headers,
      body: {
        resultSetMetaData: {
          numRows: rows.length,
          format: 'jsonv2',
          partitionInfo: Array.from({ length: partitions }, (_, i) => ({
            rowCount: rows.slice(i * size, (i + 1) * size).length,
            uncompressedSize: JSON.stringify(rows.slice(i * size, (i + 1) * size)).length,
          })),
          rowType: Array.from({ length: columns }, (_, i) => ({
            name: i === 0 ? 'status' : `C${i + 1}`,
            type: 'text',
            nullable: true,
          })),
        },
        data,
        code: '090001',
        sqlState: '00000',
        message: 'Statement executed successfully.',
        ...common,
      },
    };
  }
}

function validBindings(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.entries(value).every(
    ([k, v]) =>
      /^\d+$/.test(k) &&
      typeof v === 'object' &&
      v !== null &&
      typeof (v as Record<string, unknown>).type === 'string' &&
      typeof (v as Record<string, unknown>).value === 'string',
  );
}
