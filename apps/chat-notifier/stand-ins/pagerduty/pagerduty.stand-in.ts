import { randomUUID } from 'node:crypto';
import { ProviderStandIn, type StandInRequest, type StandInResponse } from '@app/local-agent';

export interface PagerDutyAlert {
  dedupKey: string;
  routingKey: string;
  status: 'triggered' | 'acknowledged' | 'resolved';
  summary: string;
  severity: string;
  source: string;
  customDetails?: Record<string, unknown>;
  /** Every event applied to the alert, the first trigger included. */
  log: string[];
}

const ACTIONS = ['trigger', 'acknowledge', 'resolve'];
const SEVERITIES = ['critical', 'error', 'warning', 'info'];
/** Events API payloads are limited to 512 KB. */
const MAX_BYTES = 512 * 1024;

const invalid = (...errors: string[]): StandInResponse => ({
  status: 400,
  body: { status: 'invalid event', message: 'Event object is invalid', errors },
});

/**
 * PagerDuty Events API v2 (https://developer.pagerduty.com/docs/events-api-v2/overview/): `POST /v2/enqueue`
 * with the service's 32-character integration key as `routing_key` in the JSON body (no auth header).
 * 202 `{status: success, message: Event processed, dedup_key}`; 400 `{status: invalid event, message,
 * errors}`. Alerts follow the documented de-duplication: a trigger with the dedup key of an open alert is
 * added to it, after a resolve it opens a new alert; acknowledge and resolve of an unknown or resolved alert
 * are dropped (still 202). A routing key of the right form that belongs to no service is answered 400 here
 * (the real API's answer to it is not documented). 429 has no Retry-After, as PagerDuty's.
 */
export class PagerDutyStandIn extends ProviderStandIn {
  readonly routingKeys = new Set<string>();
  readonly alerts: PagerDutyAlert[] = [];

  constructor() {
    super('pagerduty', () => ({ status: 404, body: { status: 'error', message: 'Not Found' } }));
    this.route('POST', '/v2/enqueue', (req) => this.enqueue(req));
  }

  /** A service's Events API v2 integration; returns its routing key. */
  addService(): string {
    const key = randomUUID().replace(/-/g, '');
    this.routingKeys.add(key);
    return key;
  }

  /** 429 as PagerDuty answers it when a service receives events too quickly. */
  throttleNext(times = 1): void {
    this.server.faults.add(
      {
        kind: 'status',
        status: 429,
        body: {
          status: 'throttle exceeded',
          message: 'Requests for this service are arriving too quickly.  Please retry later.',
        },
      },
      { times, match: (r) => r.path === '/v2/enqueue' },
    );
  }

  private enqueue(req: StandInRequest): StandInResponse {
    if (Buffer.byteLength(req.text) > MAX_BYTES) return invalid('Event exceeds the 512 KB size limit');
    const body = req.body as Record<string, unknown> | undefined;
    if (!body || typeof body !== 'object')
      return { status: 400, body: { status: 'invalid event', message: 'Invalid JSON' } };
    const key = body.routing_key;
    if (typeof key !== 'string' || key.length !== 32)
      return invalid("Length of 'routing_key' is incorrect (should be 32 characters)");
    if (!this.routingKeys.has(key)) return invalid('Invalid routing key');
    const action = body.event_action;
    if (typeof action !== 'string' || !ACTIONS.includes(action))
      return invalid("'event_action' is invalid (must be one of: trigger, acknowledge, resolve)");
    const dedup = typeof body.dedup_key === 'string' && body.dedup_key !== '' ? body.dedup_key : undefined;
    if (dedup && dedup.length > 255) return invalid("'dedup_key' is too long (maximum is 255 characters)");
    const open = this.alerts.find(
      (a) => a.dedupKey === dedup && a.routingKey === key && a.status !== 'resolved',
    );
    if (action !== 'trigger') {
      if (!dedup) return invalid("'dedup_key' is missing or blank");
      if (open) {
        open.status = action === 'resolve' ? 'resolved' : 'acknowledged';
        open.log.push(action);
      }
      return this.accepted(dedup);
    }
    const payload = body.payload as Record<string, unknown> | undefined;
    const problems: string[] = [];
    if (typeof payload?.summary !== 'string' || payload.summary === '')
      problems.push("'payload.summary' is missing or blank");
    else if (payload.summary.length > 1024)
      problems.push("'payload.summary' is too long (maximum is 1024 characters)");
    if (typeof payload?.source !== 'string' || payload.source === '')
      problems.push("'payload.source' is missing or blank");
    if (typeof payload?.severity !== 'string' || !SEVERITIES.includes(payload.severity))
      problems.push("'payload.severity' is invalid (must be one of: critical, error, warning, info)");
    if (problems.length > 0) return invalid(...problems);
    const dedupKey = dedup ?? randomUUID().replace(/-/g, '');
    if (open) open.log.push('trigger');
    else
      this.alerts.push({
        dedupKey,
        routingKey: key,
        status: 'triggered',
        summary: String(payload!.summary),
        severity: String(payload!.severity),
        source: String(payload!.source),
        customDetails: payload!.custom_details as Record<string, unknown> | undefined,
        log: ['trigger'],
      });
    return this.accepted(dedupKey);
  }

  private accepted(dedupKey: string): StandInResponse {
    return { status: 202, body: { status: 'success', message: 'Event processed', dedup_key: dedupKey } };
  }
}
