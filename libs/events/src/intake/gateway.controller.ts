import { IncomingMessage, ServerResponse } from 'node:http';
import { All, Controller, Inject, Req, Res } from '@nestjs/common';
import { Authenticator, WebhookRejection } from '../auth/authenticator.js';
import type { Caller } from '../auth/caller.js';
import { OperationQueue } from '../dispatch/operation-queue.js';
import { LABEL } from '../manifests/argo-objects.js';
import { ManifestStore } from '../manifests/manifest-store.js';
import { WorkflowStore } from '../submit/workflow-store.js';
import { EventIntakeService } from './event-intake.service.js';
import { cleanPath, decodePath, matchRoute } from './gateway-path.js';
import { decodeFirstJsonValue, GoJsonSyntaxError } from './go-json-decoder.js';
import { GrpcCode, GrpcError, notImplemented } from './grpc-status.js';
import { headerMetadata } from './header-metadata.js';
import { BodyTooLarge, readRawBody } from './raw-body.js';
import { ENDPOINT_OPTIONS, type ResolvedOptions } from '../options.js';

/** The webhook interceptor reads at most 2 MiB (a larger body is refused with 403). */
const WEBHOOK_BODY_LIMIT = 2 * 1024 * 1024;
const WEBHOOK_PREFIX = '/api/v1/events/';
/** The read-only counter every stand-in answers (libs/local-agent/src/stand-in), for conformance and reliability runs. */
const STAND_IN_COUNT = '/__stand-in/count';

/**
 * The Argo Server's HTTP front for the routes this emulator serves: path cleaning (redirect), the webhook
 * interceptor (no Authorization: the namespace's webhook clients, then at most 2 MiB of body, then the
 * signature), grpc-gateway routing (501), header metadata, authentication (401), body reading (the size limit,
 * 429) and decoding (400), then the handler. One deliberate difference: the real gateway decodes the body
 * before the token is checked; here the token comes first, so a caller without a valid token never makes the
 * emulator read (or hold) a byte of its body. Everything is matched here rather than by Express so that paths
 * are read the way Go reads them.
 */
@Controller()
export class GatewayController {
  constructor(
    @Inject(ENDPOINT_OPTIONS) private readonly options: ResolvedOptions,
    private readonly auth: Authenticator,
    private readonly intake: EventIntakeService,
    private readonly manifests: ManifestStore,
    private readonly workflows: WorkflowStore,
    private readonly queue: OperationQueue,
  ) {}

  @All(['/', '{*path}'])
  async handle(@Req() req: IncomingMessage, @Res() res: ServerResponse): Promise<void> {
    try {
      await this.route(req, res);
    } catch (err) {
      // Refused before the body was read (or while reading it): the rest is not read, the connection closes.
      if (!req.complete) res.setHeader('Connection', 'close');
      if (err instanceof GrpcError) return reply(res, err.httpStatus, err.body);
      if (err instanceof WebhookRejection) return reply(res, 403, err.body, 'text/plain; charset=utf-8');
      throw err;
    }
  }

  /**
   * Emulator extra, like every stand-in's but behind a valid token: events received, optionally by namespace
   * and discriminator (counted over the events still kept; `dropped` says how many older ones are not); with
   * `binding`, the workflows that binding submitted (once queued events are dispatched): the effect that
   * counts for an emitter, since a repeated event whose binding names its workflow after x-argo-plugin-key
   * submits nothing new.
   */
  private async count(query: URLSearchParams): Promise<{ name: string; count: number; dropped?: number }> {
    const namespace = query.get('namespace');
    const binding = query.get('binding');
    if (binding !== null) {
      await this.queue.idle();
      const labels = new Map([[LABEL.binding, binding]]);
      return {
        name: 'argo-server workflows',
        count: this.workflows.list(namespace ?? undefined, labels).length,
      };
    }
    const discriminator = query.get('discriminator');
    if (namespace === null && discriminator === null)
      return { name: 'argo-server', count: this.intake.receivedTotal() };
    const dropped = this.intake.dropped();
    const events = this.intake
      .received()
      .filter(
        (e) =>
          (namespace === null || e.namespace === namespace) &&
          (discriminator === null || e.discriminator === discriminator),
      );
    return { name: 'argo-server', count: events.length, ...(dropped > 0 && { dropped }) };
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '/';
    const rawPath = raw.split('?')[0]!;
    const query = new URLSearchParams(raw.includes('?') ? raw.slice(raw.indexOf('?') + 1) : '');
    const path = decodePath(rawPath);
    if (path === undefined) return reply(res, 400, '400 Bad Request', 'text/plain; charset=utf-8');
    const cleaned = cleanPath(path);
    if (cleaned !== path) {
      res.setHeader('Location', cleaned + (query.size ? `?${query}` : ''));
      return reply(res, 301, '', 'text/html; charset=utf-8');
    }
    const method = req.method ?? 'GET';
    const authorization = req.headers.authorization;
    if (method === 'GET' && path === STAND_IN_COUNT) {
      this.auth.authenticate({ authorization, headers: req.headers });
      return reply(res, 200, JSON.stringify(await this.count(query)));
    }
    let body: Buffer | undefined;
    let caller: Caller | undefined;
    const webhookNamespace = webhookTarget(method, path, authorization);
    if (webhookNamespace !== undefined) {
      this.auth.acceptsWebhooks(webhookNamespace);
      body = await this.readBody(
        req,
        WEBHOOK_BODY_LIMIT,
        () => new WebhookRejection('webhook body larger than 2 MiB'),
      );
      caller = this.auth.authenticate({ headers: req.headers, body, eventNamespace: webhookNamespace });
    }
    const route = matchRoute(method, path);
    if (route.kind === 'none') throw notImplemented();
    const authenticate = (): Caller =>
      caller ?? this.auth.authenticate({ authorization, headers: req.headers });
    if (route.kind === 'event') {
      const metadata = headerMetadata({
        rawHeaders: req.rawHeaders,
        remoteAddress: req.socket.remoteAddress,
      });
      const who = authenticate();
      const limit = this.options.maxBodyBytes;
      body ??= await this.readBody(
        req,
        limit,
        () =>
          new GrpcError(GrpcCode.ResourceExhausted, `grpc: received message larger than max (> ${limit})`),
      );
      let payload: unknown;
      try {
        payload = decodeFirstJsonValue(body);
      } catch (err) {
        if (err instanceof GoJsonSyntaxError) throw new GrpcError(GrpcCode.InvalidArgument, err.message);
        throw err;
      }
      await this.intake.receive({ ...route, payload, metadata, bytes: body.length, caller: who });
      res.setHeader('Grpc-Metadata-Content-Type', 'application/grpc');
      return reply(res, 200, '{}');
    }
    const who = authenticate();
    const { namespace } = route;
    if (route.kind === 'list-bindings') {
      if (!who.can('list workfloweventbindings', namespace))
        throw new GrpcError(
          GrpcCode.PermissionDenied,
          who.forbidden('list workfloweventbindings', namespace),
        );
      const items = this.manifests.listBindings(namespace, this.options.instanceId);
      return reply(res, 200, JSON.stringify({ metadata: {}, items }));
    }
    if (!who.can('list workflows', namespace))
      throw new GrpcError(GrpcCode.PermissionDenied, who.forbidden('list workflows', namespace));
    const items = this.workflows.list(namespace, parseLabelSelector(query.get('listOptions.labelSelector')));
    return reply(res, 200, JSON.stringify({ metadata: {}, items }));
  }

  private async readBody(req: IncomingMessage, limit: number, tooLarge: () => Error): Promise<Buffer> {
    try {
      return await readRawBody(req, limit);
    } catch (err) {
      throw err instanceof BodyTooLarge ? tooLarge() : err;
    }
  }
}

/** The namespace when Argo's webhook interceptor handles the request: POST /api/v1/events/<ns>/..., no Authorization. */
function webhookTarget(method: string, path: string, authorization: string | undefined): string | undefined {
  if (method !== 'POST' || authorization !== undefined || !path.startsWith(WEBHOOK_PREFIX)) return undefined;
  const rest = path.slice(WEBHOOK_PREFIX.length);
  const slash = rest.indexOf('/');
  return slash < 0 ? undefined : rest.slice(0, slash);
}

/** `a=b,c=d` (equality only, as the emulator's listing supports). */
function parseLabelSelector(selector: string | null): Map<string, string> {
  const labels = new Map<string, string>();
  for (const part of (selector ?? '').split(',').filter(Boolean)) {
    const [key, value] = part.split('=');
    if (key) labels.set(key.trim(), (value ?? '').trim());
  }
  return labels;
}

function reply(res: ServerResponse, status: number, body: string, contentType = 'application/json'): void {
  res.statusCode = status;
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}
