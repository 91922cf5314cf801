import { randomBytes } from 'node:crypto';
import { ProviderStandIn, type StandInRequest, type StandInResponse } from '@app/local-agent';

export interface TeamsFlow {
  id: string;
  sig: string;
  /** The cards the flow posted to its channel. */
  posted: Array<Record<string, unknown>>;
  /** Runs that failed after the 202 (the sender never learns about them): what the flow's run history shows. */
  failedRuns: string[];
}

const error = (status: number, code: string, message: string): StandInResponse => ({
  status,
  body: { error: { code, message } },
});

/** Teams refuses messages above about 28 KB. */
const MAX_MESSAGE_BYTES = 28 * 1024;

/**
 * A Teams Workflows webhook: the Power Automate flow "Post to a channel when a webhook request is received"
 * (https://support.microsoft.com/office/create-incoming-webhooks-with-workflows-for-microsoft-teams). The URL
 * carries `api-version`, `sp`, `sv` and the SAS signature `sig`; a call without a valid `sig` is 401 (the
 * error code for a wrong signature is not documented: this stand-in answers it like a missing one). A
 * valid call is 202 with an empty body — no message id — and the flow runs afterwards: it posts each
 * Adaptive Card attachment, or the run fails (not a card, too large), which only its run history shows.
 */
export class TeamsWorkflowStandIn extends ProviderStandIn {
  readonly flows = new Map<string, TeamsFlow>();

  constructor() {
    super('teams', () => error(404, 'WorkflowNotFound', 'The workflow could not be found.'));
    this.route('POST', '/workflows/:id/triggers/manual/paths/invoke', (req) => this.invoke(req));
  }

  /** A flow bound to a channel; returns it and the webhook URL Teams shows. */
  addFlow(): { flow: TeamsFlow; url: string } {
    const flow: TeamsFlow = {
      id: randomBytes(16).toString('hex'),
      sig: randomBytes(32).toString('base64url'),
      posted: [],
      failedRuns: [],
    };
    this.flows.set(flow.id, flow);
    return {
      flow,
      url: `${this.url}/workflows/${flow.id}/triggers/manual/paths/invoke?api-version=1&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${flow.sig}`,
    };
  }

  /** 429 with Retry-After, as Power Automate throttles a flow's trigger. */
  throttleNext(retryAfterSeconds: number, times = 1): void {
    this.server.faults.add(
      {
        kind: 'rate-limit',
        retryAfterSeconds,
        body: {
          error: {
            code: 'WorkflowRequestsThrottled',
            message: 'The workflow is receiving too many requests.',
          },
        },
      },
      { times, match: (r) => r.path.endsWith('/paths/invoke') },
    );
  }

  private invoke(req: StandInRequest): StandInResponse {
    const flow = this.flows.get(req.params.id);
    if (!flow) return error(404, 'WorkflowNotFound', 'The workflow could not be found.');
    if (req.query.get('sig') !== flow.sig || !req.query.get('sp') || !req.query.get('sv'))
      return error(
        401,
        'DirectApiAuthorizationRequired',
        'The request must be authenticated only by Shared Access scheme.',
      );
    if (!String(req.headers['content-type'] ?? '').startsWith('application/json') || req.body === undefined)
      return error(
        400,
        'InvalidRequestContent',
        "The input body for trigger 'manual' of type 'Request' must be of type JSON.",
      );
    const runId = randomBytes(8).toString('hex');
    const attachments = (
      req.body as { attachments?: Array<{ contentType?: string; content?: Record<string, unknown> }> }
    ).attachments;
    const cards = (attachments ?? []).filter(
      (a) =>
        a.contentType === 'application/vnd.microsoft.card.adaptive' && a.content?.type === 'AdaptiveCard',
    );
    if (cards.length === 0) flow.failedRuns.push(`${runId}: no Adaptive Card attachment`);
    else if (Buffer.byteLength(req.text) > MAX_MESSAGE_BYTES)
      flow.failedRuns.push(`${runId}: message too large`);
    else for (const card of cards) flow.posted.push(card.content!);
    return { status: 202, headers: { 'x-ms-workflow-run-id': runId } };
  }
}
