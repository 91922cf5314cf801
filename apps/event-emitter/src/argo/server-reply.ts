// What a reply of the event endpoint means for the node (Argo Server v4.1: EventService.ReceiveEvent).
import type { ExecuteTemplateReply } from '@app/contract';
import { failed, parseRetryAfter, succeeded, UpstreamError } from '@app/plugin-kit';
import { errorDetail } from '@app/plugin-kit/upstream/error-detail.js';
import type { ServerReply } from './argo-event-client.js';
import { workflowsAlreadyCreated } from './already-delivered.js';

export interface SentEvent {
  namespace: string;
  discriminator: string;
  /** The execution key sent as x-argo-plugin-key. */
  key: string;
  baseHref: string;
}

const RBAC =
  'the token needs, in the target namespace: list workfloweventbindings (else 403), and for the bindings to submit: get workflowtemplates (get clusterworkflowtemplates for clusterScope) and create workflows, e.g. the quick-start Role submit-workflow-template';

function detail(reply: ServerReply): string {
  return errorDetail(reply.data, 1000) ?? '';
}

/** The grpc status message exactly as sent (not shortened), for parsing. */
function statusMessage(reply: ServerReply): string {
  const data = reply.data as { message?: unknown } | null;
  return data && typeof data === 'object' && typeof data.message === 'string' ? data.message : '';
}

/** How the server words a sync-mode 500 after running the bindings (the server's dispatcher in synchronous mode). */
const DISPATCH_FAILURE = /^failed to dispatch event: /;

/**
 * 200 → Succeeded; 503/429/5xx-gateway → transient (Running, backoff, Retry-After); a dispatch 500 → Failed
 * without a retry (unless every failure is this execution's own earlier workflow), any other 500 → transient;
 * 401/403/400/404/501 → Failed with a hint.
 */
export function interpretReply(reply: ServerReply, event: SentEvent): ExecuteTemplateReply {
  const where = `${event.namespace}/${event.discriminator}`;
  const outputs = { namespace: event.namespace, discriminator: event.discriminator };
  const prefix = `workflow-event: POST ${reply.path} → ${reply.status}`;
  const text = detail(reply);
  const said = text ? `: ${text}` : '';
  if (reply.status >= 200 && reply.status < 300)
    return succeeded(
      { status: 'accepted', ...outputs },
      `event sent to ${where}: accepted (the server does not say whether a binding matched)`,
    );
  if (
    reply.status === 503 ||
    reply.status === 429 ||
    reply.status === 502 ||
    reply.status === 504 ||
    reply.status === 408
  )
    throw UpstreamError.transient(
      `${prefix}${said}${reply.status === 503 && /queue full/.test(text) ? ' (the server event queue is full)' : ''}`,
      { status: reply.status, retryAfterMs: parseRetryAfter(reply.retryAfter) },
    );
  if (reply.status === 500) {
    const message = statusMessage(reply);
    // Only a dispatch failure can leave workflows behind. Any other 500 (listing bindings failed, or a proxy
    // or ingress between us and the server answered) happened before dispatch: as safe to retry as a 502.
    if (!DISPATCH_FAILURE.test(message))
      throw UpstreamError.transient(
        `${prefix}${said} (not a dispatch failure of the server: retried like a 502)`,
        {
          status: reply.status,
        },
      );
    const own = workflowsAlreadyCreated(message, event.key);
    if (own)
      return succeeded(
        { status: 'already-delivered', ...outputs },
        `event already delivered to ${where}: workflow ${own.join(', ')} from an earlier send of this execution exists (a repeat after a restart or a lost reply; the binding's name expression uses x-argo-plugin-key)`,
      );
    return failed(
      `${prefix}${said}. Some bindings may already have submitted their workflows (the server dispatches every binding and reports the failures together), so the event is not sent again`,
    );
  }
  if (reply.status === 401)
    return failed(
      `${prefix}${said}. The Argo Server does not accept ARGO_TOKEN (wrong or expired token); ${RBAC}`,
    );
  if (reply.status === 403)
    return failed(
      /failed to process webhook request/.test(text)
        ? `${prefix}${said}. No Authorization header reached the server (a proxy may strip it)`
        : `${prefix}${said}. The token may not do this in namespace ${event.namespace}: ${RBAC}`,
    );
  if (reply.status === 501 || reply.status === 404 || reply.status === 405)
    return failed(
      `${prefix}${said}. The server has no such route: check ARGO_BASE_HREF (now "${event.baseHref}") and that ARGO_SERVER is the Argo Server`,
    );
  if (reply.status === 400) return failed(`${prefix}${said}`);
  if (reply.status >= 500) throw UpstreamError.transient(`${prefix}${said}`, { status: reply.status });
  return failed(`${prefix}${said}`);
}
