import { randomUUID } from 'node:crypto';
import {
  ProviderStandIn,
  verifySigV4,
  type AwsKey,
  type StandInRequest,
  type StandInResponse,
} from '@app/local-agent';

/** The account of every stand-in ARN. */
export const STAND_IN_ACCOUNT = '123456789012';

export interface AwsStandInOptions {
  /** The keys whose signatures are accepted. */
  keys: readonly AwsKey[];
  region?: string;
}

/** How an AWS JSON-protocol service is spoken: its signing name, target prefix, JSON version and error namespace. */
export type AwsJsonProtocol = [
  signingName: string,
  targetPrefix: string,
  jsonVersion: '1.0' | '1.1',
  errorNamespace: string,
];

export type Json = Record<string, unknown>;
type Operation = (input: Json, req: StandInRequest) => Json;

/** A reply that is an AWS error: `__type` and `message`, status 400 unless said otherwise. */
export class AwsError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

/**
 * The base of the AWS JSON-protocol stand-ins (Step Functions, Glue, SageMaker): `POST /` with
 * `X-Amz-Target: <prefix>.<Operation>`, the SigV4 signature recomputed and checked with the known secret,
 * errors as `{__type, message}` with `x-amzn-RequestId`, and throttling scripted per operation (the SDK retries it).
 */
export class AwsJsonStandIn extends ProviderStandIn {
  readonly region: string;
  private readonly operations = new Map<string, Operation>();

  private readonly protocol: {
    signingName: string;
    targetPrefix: string;
    jsonVersion: string;
    errorNamespace: string;
  };

  constructor(
    name: string,
    [signingName, targetPrefix, jsonVersion, errorNamespace]: AwsJsonProtocol,
    private readonly options: AwsStandInOptions,
  ) {
    super(name, () => ({ status: 404, body: { message: 'Not Found' } }));
    this.protocol = { signingName, targetPrefix, jsonVersion, errorNamespace };
    this.region = options.region ?? 'eu-west-1';
    this.route('POST', '/', (req) => this.dispatch(req));
  }

  /** The operations a test sees called, in order (`StartExecution`, ...). */
  get operationCalls(): string[] {
    return this.server.calls.map(
      (c) => targetOf(c.headers['x-amz-target'], this.protocol.targetPrefix) ?? '?',
    );
  }

  count(operation: string): number {
    return this.operationCalls.filter((o) => o === operation).length;
  }

  /** The next `times` calls of `operation` are refused as throttled (`ThrottlingException` unless named). */
  throttle(operation: string, times = 1, type = 'ThrottlingException'): void {
    this.failNext(operation, new AwsError(type, 'Rate exceeded'), times);
  }

  /** The next `times` calls of `operation` get `error` (a 5xx `InternalServerException`, an `AccessDeniedException`). */
  failNext(operation: string, error: AwsError, times = 1): void {
    this.server.faults.add(
      { kind: 'status', status: error.status, body: this.errorBody(error), headers: this.headers() },
      { times, match: (r) => targetOf(r.headers['x-amz-target'], this.protocol.targetPrefix) === operation },
    );
  }

  protected operation(name: string, handler: Operation): this {
    this.operations.set(name, handler);
    return this;
  }

  protected arn(service: string, resource: string): string {
    return `arn:aws:${service}:${this.region}:${STAND_IN_ACCOUNT}:${resource}`;
  }

  private dispatch(req: StandInRequest): StandInResponse {
    const refused = verifySigV4(req, {
      keys: this.options.keys,
      region: this.region,
      service: this.protocol.signingName,
    });
    if (refused) return this.error(new AwsError(refused.type, refused.message, refused.status));
    const contentType = String(req.headers['content-type'] ?? '');
    if (!contentType.startsWith(`application/x-amz-json-${this.protocol.jsonVersion}`))
      return this.error(
        new AwsError('SerializationException', `Unsupported content type: ${contentType || 'none'}`),
      );
    const name = targetOf(req.headers['x-amz-target'], this.protocol.targetPrefix);
    const handler = name === undefined ? undefined : this.operations.get(name);
    if (!handler)
      return this.error(
        new AwsError('UnknownOperationException', `Unknown operation ${String(req.headers['x-amz-target'])}`),
      );
    let input: unknown;
    try {
      input = req.text === '' ? {} : JSON.parse(req.text);
    } catch {
      return this.error(
        new AwsError('SerializationException', 'Start of structure or map found where not expected.'),
      );
    }
    try {
      return { status: 200, headers: this.headers(), body: handler(input as Json, req) };
    } catch (err) {
      if (err instanceof AwsError) return this.error(err);
      throw err;
    }
  }

  private headers(): Record<string, string> {
    return {
      'Content-Type': `application/x-amz-json-${this.protocol.jsonVersion}`,
      'x-amzn-RequestId': randomUUID(),
    };
  }

  private errorBody(error: AwsError): Json {
    return { __type: `${this.protocol.errorNamespace}#${error.type}`, message: error.message };
  }

  private error(error: AwsError): StandInResponse {
    return { status: error.status, headers: this.headers(), body: this.errorBody(error) };
  }
}

function targetOf(header: unknown, prefix: string): string | undefined {
  return typeof header === 'string' && header.startsWith(`${prefix}.`)
    ? header.slice(prefix.length + 1)
    : undefined;
}

/** The `1 validation error detected` reply of a required member that is missing. */
export function required(input: Json, member: string): unknown {
  const value = input[member];
  if (value === undefined || value === null)
    throw new AwsError(
      'ValidationException',
      `1 validation error detected: Value null at '${member}' failed to satisfy constraint: Member must not be null`,
    );
  return value;
}

/** AWS JSON timestamps: epoch seconds. */
export const epochSeconds = (ms: number): number => ms / 1000;
