import {
  PluginConfigError,
  Redactor,
  UpstreamClients,
  UpstreamError,
  type UpstreamAccess,
} from '@app/plugin-kit';
import {
  upstreamOf,
  type ApprovalAnswer,
  type ApprovalChannel,
  type ApprovalChannels,
  type Conclusion,
  type PostedRequest,
  type RequestState,
} from '../../approvals/approval-channel.js';
import type { GateFeature } from '../../approvals/approve-config.dto.js';
import { conclusionLine } from '../../approvals/concluded-decision.js';
import { firstLine, textDigest } from '../../shared/approval-fields.js';
import type { ServicenowApprovalConfig } from './servicenow-approval-config.dto.js';
import {
  CHANGE_FIELDS,
  ServicenowApi,
  servicenowTime,
  type ServicenowApproval,
  type ServicenowChange,
} from './servicenow-api.js';
import { SERVICENOW_INSTANCES, type ServicenowInstance } from './servicenow-settings.js';

/**
 * ServiceNow has no fixed rate limit: an admin defines rate limit rules, answered with 429 and Retry-After
 * (https://docs.servicenow.com, "Inbound REST API rate limiting"). The gates keep to this many calls a minute
 * an instance; the admin may set APPROVALS_SERVICENOW_CALLS_PER_MINUTE.
 */
export const SERVICENOW_CALLS_PER_MINUTE = 60;

/** A change request's `state` once it is cancelled (the Change Management state model: 4 = Canceled). */
export const CANCELED_STATE = '4';

/** Ends the work note that shows the decision. */
const DECISION_MARK = '[argo-approval-decision]';

/** Characters of the text's first line the short description takes (the field holds 160). */
const SHORT_LIMIT = 160;

/** The change's `correlation_id` (a 100-character field): the gate's marker, hashed. */
export function correlationId(marker: string): string {
  return `argo-approval-${textDigest(marker).slice(0, 40)}`;
}

/**
 * An approval request as a ServiceNow change request: one the gate opens (its `correlation_id` carries the
 * step's key), or one the body names. The listed approvers answer through ServiceNow's own approvals: their
 * approval records (sysapproval_approver, `approved` or `rejected`) are their answers. An approval counts only
 * once the change's `approval` field is `approved` (ServiceNow's approval rules are met); a rejection counts at
 * once. A change whose `state` is Canceled fails the gate. The decision is a work note of the gate's account,
 * which a restarted gate reads back from the journal.
 */
export class ServicenowApprovalChannel implements ApprovalChannel {
  /** The change, its journal, its approval records (100 a page). */
  readonly callsPerRead = 3;
  readonly callsPerMinute = SERVICENOW_CALLS_PER_MINUTE;
  readonly budgetVariable = 'APPROVALS_SERVICENOW_CALLS_PER_MINUTE';
  readonly howToAnswer = "Approve or reject the change's approval in ServiceNow.";

  constructor(
    readonly upstream: string,
    private readonly api: ServicenowApi,
    private readonly instance: ServicenowInstance,
    private readonly config: ServicenowApprovalConfig,
  ) {}

  mention(sysId: string): string {
    return sysId;
  }

  async post(request: { text: string; marker: string }, signal: AbortSignal): Promise<PostedRequest> {
    const user = this.instance.user;
    if (this.config.change) {
      const [named] = await this.api.records<ServicenowChange>(
        'change_request',
        `number=${this.config.change}`,
        CHANGE_FIELDS,
        signal,
      );
      if (!named)
        throw UpstreamError.permanent(
          `servicenow: change ${this.config.change} does not exist or the account cannot read it`,
        );
      return this.posted(named, false);
    }
    const correlation = correlationId(request.marker);
    // Only a change this account opened is its request: anyone who may write changes can copy the field.
    const found = await this.api.records<ServicenowChange>(
      'change_request',
      `correlation_id=${correlation}^sys_created_by=${user}^ORDERBYsys_created_on`,
      CHANGE_FIELDS,
      signal,
    );
    const earlier = found.find((c) => c.sys_created_by === user && c.correlation_id === correlation);
    if (earlier) return this.posted(earlier, true);
    const created = await this.api.createChange(
      {
        type: this.config.type ?? 'normal',
        short_description: firstLine(request.text, SHORT_LIMIT),
        description: `${request.text}\n\n${this.howToAnswer}`,
        correlation_id: correlation,
        correlation_display: 'Argo approval gate',
      },
      signal,
    );
    return this.posted(created, false);
  }

  async read(posted: PostedRequest, signal: AbortSignal): Promise<RequestState> {
    const sysId = posted.ref.sysId!;
    let change: ServicenowChange;
    try {
      change = await this.api.change(sysId, signal);
    } catch (err) {
      if (err instanceof UpstreamError && err.status === 404) return { kind: 'deleted' };
      throw err;
    }
    const line = await this.decisionLine(sysId, signal);
    if (line) return { kind: 'concluded', line };
    if (change.state === CANCELED_STATE)
      return { kind: 'cancelled', detail: `change ${change.number} was cancelled` };
    const records = await this.api.records<ServicenowApproval>(
      'sysapproval_approver',
      `sysapproval=${sysId}^stateINapproved,rejected`,
      'approver,state,sys_updated_on',
      signal,
    );
    const answers: ApprovalAnswer[] = records
      .filter((r) => r.state === 'rejected' || change.approval === 'approved')
      .map((r) => ({
        user: r.approver,
        vote: r.state === 'approved' ? ('approve' as const) : ('reject' as const),
        at: servicenowTime(r.sys_updated_on) || 0,
        bot: false,
      }));
    return { kind: 'present', answers };
  }

  /** sys_ids as they are: ServiceNow's groups are not expanded (docs/approvals.md). */
  members(approvers: string[]): Promise<Set<string>> {
    return Promise.resolve(new Set(approvers));
  }

  async conclude(posted: PostedRequest, { decision }: Conclusion, signal: AbortSignal): Promise<void> {
    try {
      if (await this.decisionLine(posted.ref.sysId!, signal)) return;
      await this.api.workNote(posted.ref.sysId!, `${decision}\n${DECISION_MARK}`, signal);
    } catch (err) {
      if (err instanceof UpstreamError && err.status === 404) return;
      throw err;
    }
  }

  /** The decision line of the gate's own work note, if it wrote one. */
  private async decisionLine(sysId: string, signal: AbortSignal): Promise<string | undefined> {
    const user = this.instance.user;
    const notes = await this.api.records<{ value: string; sys_created_by: string }>(
      'sys_journal_field',
      `element_id=${sysId}^element=work_notes^sys_created_by=${user}`,
      'value,sys_created_by',
      signal,
    );
    for (const note of notes) {
      const text = (note.value ?? '').trim();
      if (note.sys_created_by !== user || !text.endsWith(DECISION_MARK)) continue;
      const line = conclusionLine(`\n\n${text.slice(0, -DECISION_MARK.length).trim()}`);
      if (line) return line;
    }
    return undefined;
  }

  private posted(change: ServicenowChange, found: boolean): PostedRequest {
    return {
      ref: { sysId: change.sys_id, number: change.number },
      url: `${this.instance.url}/nav_to.do?uri=change_request.do?sys_id=${change.sys_id}`,
      author: this.instance.user,
      postedAt: servicenowTime(change.sys_created_on),
      found,
    };
  }
}

/** The ServiceNow approval channels of a sidecar: one API client per configured instance. */
export class ServicenowApprovalChannels implements ApprovalChannels<ServicenowApprovalConfig> {
  /** Answers are approval records: no comment is read, no creator look-up, no groups of the gate's own. */
  readonly supports = new Set<GateFeature>();
  private readonly apis: UpstreamClients<ServicenowInstance, ServicenowApi>;

  constructor(
    private readonly instances: ReadonlyMap<string, ServicenowInstance>,
    redactor: Redactor,
    timeoutMs: number,
  ) {
    for (const i of instances.values()) redactor.add(i.password ?? i.token!);
    this.apis = new UpstreamClients(
      SERVICENOW_INSTANCES,
      instances,
      (instance, name) => new ServicenowApi(name, instance, timeoutMs),
    );
  }

  channelFor(config: ServicenowApprovalConfig, access: UpstreamAccess): ServicenowApprovalChannel {
    const api = this.apis.get(config.instance, access);
    if (!this.instances.has(api.instance)) throw new PluginConfigError('instance: not configured');
    return new ServicenowApprovalChannel(
      upstreamOf('servicenow', config.instance),
      api,
      this.instances.get(api.instance)!,
      config,
    );
  }
}
