import type { AxiosInstance } from 'axios';
import { UpstreamError, upstreamVariable } from '@app/plugin-kit';
import { createUpstreamClient } from '@app/plugin-kit/upstream/http-client.js';
import { withHint } from '../../shared/upstream-hints.js';

/** An Events API v2 alert event (https://developer.pagerduty.com/docs/events-api-v2/trigger-events/). */
export interface PagerDutyEvent {
  event_action: 'trigger' | 'acknowledge' | 'resolve';
  dedup_key: string;
  payload?: {
    summary: string;
    source: string;
    severity: string;
    component?: string;
    group?: string;
    class?: string;
    custom_details?: Record<string, string>;
  };
  client?: string;
}

/** PagerDuty's answer: 202 `{status, message, dedup_key}`; 400 adds `errors`. */
interface EventReply {
  status?: string;
  message?: string;
  dedup_key?: string;
  errors?: unknown;
}

/** PagerDuty sends no Retry-After with its 429 and asks for "a backoff of a few minutes". */
const RATE_LIMIT_WAIT_MS = 60_000;

function describe(data: unknown): string | undefined {
  const d = data as EventReply | undefined;
  if (typeof d?.message !== 'string') return undefined;
  const errors = Array.isArray(d.errors) ? `: ${d.errors.map(String).join('; ')}` : '';
  return `${d.message}${errors}`;
}

/** The Events API v2 of one PagerDuty service: the routing key in the body is the credential. */
export class PagerDutyEvents {
  private readonly http: AxiosInstance;

  constructor(
    readonly service: string,
    private readonly routingKey: string,
    eventsUrl: string,
    timeoutMs: number,
  ) {
    this.http = createUpstreamClient({
      upstream: 'pagerduty',
      baseURL: eventsUrl,
      timeoutMs,
      describe: (response) => describe(response.data),
    });
  }

  async send(event: PagerDutyEvent): Promise<{ dedupKey: string; message: string }> {
    try {
      const { data } = await this.http.post<EventReply>('/v2/enqueue', {
        routing_key: this.routingKey,
        ...event,
      });
      return { dedupKey: data.dedup_key ?? event.dedup_key, message: data.message ?? '' };
    } catch (err) {
      const variable = upstreamVariable({ prefix: 'PAGERDUTY' }, this.service, 'ROUTING_KEY');
      const hinted = withHint(err, {
        400: `PagerDuty refused the event; if it names the routing key, the admin copies the integration key of the service's Events API v2 integration into ${variable}`,
      });
      if (hinted instanceof UpstreamError && hinted.status === 429 && hinted.retryAfterMs === undefined)
        throw new UpstreamError(hinted.kind, hinted.message, {
          status: 429,
          retryAfterMs: RATE_LIMIT_WAIT_MS,
          cause: hinted.cause,
        });
      throw hinted;
    }
  }
}
