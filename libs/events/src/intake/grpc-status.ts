// Errors as grpc-gateway v1 writes them: a grpc Status marshalled with encoding/json ({"code","message"}).

/** The grpc codes the event endpoint produces. */
export const GrpcCode = {
  InvalidArgument: 3,
  NotFound: 5,
  PermissionDenied: 7,
  ResourceExhausted: 8,
  Unimplemented: 12,
  Internal: 13,
  Unavailable: 14,
  Unauthenticated: 16,
} as const;

/** runtime.HTTPStatusFromCode for the codes above. */
const HTTP_STATUS: Record<number, number> = {
  3: 400,
  5: 404,
  7: 403,
  8: 429,
  12: 501,
  13: 500,
  14: 503,
  16: 401,
};

/** An error that becomes `{"code":<code>,"message":<message>}` with the gateway's HTTP status. */
export class GrpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'GrpcError';
  }

  get httpStatus(): number {
    return HTTP_STATUS[this.code] ?? 500;
  }

  get body(): string {
    return JSON.stringify({ code: this.code, message: this.message });
  }
}

export const notImplemented = (): GrpcError => new GrpcError(GrpcCode.Unimplemented, 'Not Implemented');
