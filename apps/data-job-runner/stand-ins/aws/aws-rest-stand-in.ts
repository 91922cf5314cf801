import { randomUUID } from 'node:crypto';
import { ProviderStandIn, verifySigV4, type StandInRequest, type StandInResponse } from '@app/local-agent';
import { AwsError, STAND_IN_ACCOUNT, type AwsStandInOptions, type Json } from './aws-json-stand-in.js';

type RestOperation = (req: StandInRequest, input: Json) => Json;

/**
 * The base of the AWS REST-JSON stand-ins (EMR Serverless, Batch): resources by method and path, the SigV4
 * signature recomputed and checked, errors as the status with `x-amzn-ErrorType` and `{message}`, and
 * throttling scripted per operation (429 `ThrottlingException` or `TooManyRequestsException`, retried by the SDK).
 */
export class AwsRestStandIn extends ProviderStandIn {
  readonly region: string;

  constructor(
    name: string,
    private readonly signingName: string,
    private readonly options: AwsStandInOptions,
  ) {
    super(name, () => ({
      status: 404,
      headers: errorHeaders('UnknownOperationException'),
      body: { message: 'Not Found' },
    }));
    this.region = options.region ?? 'eu-west-1';
  }

  /** The operations a test sees called, in order. */
  get operationCalls(): string[] {
    return this.server.calls.map((c) => this.operationOf(c.method, c.path));
  }

  count(operation: string): number {
    return this.operationCalls.filter((o) => o === operation).length;
  }

  /** The next `times` calls of `operation` are refused as throttled, 429. */
  throttle(operation: string, times = 1, type = 'ThrottlingException'): void {
    this.failNext(operation, new AwsError(type, 'Rate exceeded', 429), times);
  }

  failNext(operation: string, error: AwsError, times = 1): void {
    this.server.faults.add(
      {
        kind: 'status',
        status: error.status,
        body: { message: error.message },
        headers: errorHeaders(error.type),
      },
      { times, match: (r) => this.operationOf(r.method, r.path) === operation },
    );
  }

  protected operation(name: string, method: string, path: string, handler: RestOperation): this {
    this.patterns.push({ name, method, pattern: new RegExp(`^${path.replace(/:[a-zA-Z]+/g, '[^/]+')}$`) });
    this.route(method, path, (req) => this.signed(req, handler));
    return this;
  }

  protected arn(service: string, resource: string): string {
    return `arn:aws:${service}:${this.region}:${STAND_IN_ACCOUNT}:${resource}`;
  }

  private readonly patterns: Array<{ name: string; method: string; pattern: RegExp }> = [];

  private operationOf(method: string, path: string): string {
    return this.patterns.find((p) => p.method === method && p.pattern.test(path))?.name ?? '?';
  }

  private signed(req: StandInRequest, handler: RestOperation): StandInResponse {
    const refused = verifySigV4(req, {
      keys: this.options.keys,
      region: this.region,
      service: this.signingName,
    });
    if (refused) return this.error(new AwsError(refused.type, refused.message, refused.status));
    let input: unknown = {};
    if (req.text !== '') {
      try {
        input = JSON.parse(req.text);
      } catch {
        return this.error(new AwsError('SerializationException', 'Malformed JSON body'));
      }
    }
    try {
      return {
        status: 200,
        headers: { 'Content-Type': 'application/json', 'x-amzn-RequestId': randomUUID() },
        body: handler(req, input as Json),
      };
    } catch (err) {
      if (err instanceof AwsError) return this.error(err);
      throw err;
    }
  }

  private error(error: AwsError): StandInResponse {
    return { status: error.status, headers: errorHeaders(error.type), body: { message: error.message } };
  }
}

function errorHeaders(type: string): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'x-amzn-ErrorType': `${type}:`,
    'x-amzn-RequestId': randomUUID(),
  };
}
