import { Inject, Injectable } from '@nestjs/common';
import { GrpcCode, GrpcError } from '../intake/grpc-status.js';
import { ENDPOINT_OPTIONS, type ResolvedOptions } from '../options.js';
import { Caller } from './caller.js';
import { sameSecret } from './same-secret.js';
import type { TokenEntry } from './tokens-file.js';
import { webhookSignatureMatches } from './webhook-signature.js';

/** The webhook interceptor's own reply (not a grpc status): 403 with this exact body. */
export class WebhookRejection extends Error {
  readonly body = '{"message": "failed to process webhook request"}';
  constructor(reason: string) {
    super(reason);
    this.name = 'WebhookRejection';
  }
}

const TOKEN_NOT_VALID = 'token not valid. see https://argo-workflows.readthedocs.io/en/latest/faq/';
const WEBHOOK_BODY_LIMIT = 2 * 1024 * 1024;

export interface AuthRequest {
  authorization?: string;
  headers: Record<string, string | string[] | undefined>;
  /** The raw body, for webhook signatures (event requests only). */
  body?: Buffer;
  /** Set for `POST /api/v1/events/{namespace}/...`: requests without a token go to the webhook interceptor. */
  eventNamespace?: string;
}

/**
 * Client auth mode: `Authorization: Bearer <token>` must be a token from the tokens file (else 401). An
 * event request without Authorization is handled like Argo's webhook interceptor: without webhook clients
 * for the namespace it is refused with 403; a matching vendor signature acts as that ServiceAccount.
 */
@Injectable()
export class Authenticator {
  constructor(@Inject(ENDPOINT_OPTIONS) private readonly options: ResolvedOptions) {}

  authenticate(req: AuthRequest): Caller {
    const header = req.authorization;
    if (header === undefined && req.eventNamespace !== undefined) return this.webhook(req);
    const match = /^Bearer (.+)$/.exec(header ?? '');
    const entry = match ? this.tokenEntry(match[1]!) : undefined;
    if (!entry) throw new GrpcError(GrpcCode.Unauthenticated, TOKEN_NOT_VALID);
    return new Caller(entry);
  }

  /**
   * The webhook interceptor's first step, before it reads the body: the namespace's webhook clients (the
   * Secret argo-workflows-webhook-clients). Without them the request is refused with 403.
   */
  acceptsWebhooks(namespace: string): void {
    if (!this.options.tokens.webhookClients.has(namespace))
      throw new WebhookRejection(`no webhook clients in namespace ${namespace}`);
  }

  /** Every known token is compared, in constant time each: the timing tells neither which one nor how close. */
  private tokenEntry(presented: string): TokenEntry | undefined {
    let found: TokenEntry | undefined;
    for (const entry of this.options.tokens.tokens) if (sameSecret(presented, entry.token)) found ??= entry;
    return found;
  }

  private webhook(req: AuthRequest): Caller {
    this.acceptsWebhooks(req.eventNamespace!);
    const clients = this.options.tokens.webhookClients.get(req.eventNamespace!)!;
    const body = req.body ?? Buffer.alloc(0);
    if (body.length > WEBHOOK_BODY_LIMIT) throw new WebhookRejection('webhook body larger than 2 MiB');
    for (const [serviceAccount, client] of clients) {
      if (!webhookSignatureMatches(client, req.headers, body)) continue;
      const subject = `system:serviceaccount:${req.eventNamespace}:${serviceAccount}`;
      const entry = this.options.tokens.tokens.find((t) => t.subject === subject);
      if (entry) return new Caller(entry);
    }
    throw new GrpcError(GrpcCode.Unauthenticated, TOKEN_NOT_VALID);
  }
}
