import type { AxiosInstance, AxiosResponse } from 'axios';
import { UpstreamError, upstreamVariable } from '@app/plugin-kit';
import { createUpstreamClient } from '@app/plugin-kit/upstream/http-client.js';
import { withHint } from '../../shared/upstream-hints.js';
import { nextPageLink } from '../../shared/next-page-link.js';
import { replyFields } from '../../shared/reply-fields.js';
import { SERVICENOW_FAMILY, type ServicenowInstance } from './servicenow-settings.js';

/** The fields of a change_request the gate reads (values, not display values; times in UTC). */
export interface ServicenowChange {
  sys_id: string;
  number: string;
  state: string;
  approval: string;
  sys_created_on: string;
  sys_created_by: string;
  correlation_id?: string;
}

/** One approval record (sysapproval_approver) of a change: whose, in which state, when last changed. */
export interface ServicenowApproval {
  approver: string;
  state: string;
  sys_updated_on: string;
}

export const CHANGE_FIELDS = 'sys_id,number,state,approval,sys_created_on,sys_created_by,correlation_id';
/** Records a page; the Table API's default sysparm_limit is 10,000, far more than one read should carry. */
const PAGE = 100;
/** Pages followed at most: a bound on what one read costs. */
const MAX_PAGES = 20;

/** ServiceNow's error body: `{error: {message, detail}, status: "failure"}`. */
function describe(data: unknown): string | undefined {
  const e = (data as { error?: { message?: unknown; detail?: unknown } } | undefined)?.error;
  if (typeof e?.message !== 'string') return undefined;
  return typeof e.detail === 'string' && e.detail !== '' ? `${e.message} (${e.detail})` : e.message;
}

/** A ServiceNow time (`2026-06-07 10:00:00`, UTC with sysparm_display_value=false) in ms; NaN when not one. */
export function servicenowTime(value: string): number {
  return /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(value) ? Date.parse(`${value.replace(' ', 'T')}Z`) : NaN;
}

/** ServiceNow's Table API (https://<instance>.service-now.com/api/now/table) with one instance's account. */
export class ServicenowApi {
  private readonly http: AxiosInstance;
  private readonly base: string;

  constructor(
    readonly instance: string,
    config: ServicenowInstance,
    timeoutMs: number,
  ) {
    this.base = config.url;
    this.http = createUpstreamClient({
      upstream: 'servicenow',
      baseURL: config.url,
      ...(config.password !== undefined
        ? { auth: { username: config.user, password: config.password } }
        : {}),
      headers: {
        Accept: 'application/json',
        ...(config.token !== undefined && { Authorization: `Bearer ${config.token}` }),
      },
      timeoutMs,
      describe: (response) => describe(response.data),
    });
  }

  private get hints() {
    const variable = upstreamVariable(SERVICENOW_FAMILY, this.instance, 'PASSWORD');
    return {
      401: `the credentials of ServiceNow instance "${this.instance}" are wrong or expired: the admin renews ${variable} (or _TOKEN)`,
      403: `the account of ServiceNow instance "${this.instance}" lacks a role: change_request read/write, sysapproval_approver and sys_journal_field read`,
    };
  }

  private async call<T>(run: () => Promise<AxiosResponse<T>>): Promise<AxiosResponse<T>> {
    try {
      return await run();
    } catch (err) {
      throw withHint(err, this.hints);
    }
  }

  /** Every record of `table` that `query` (an encoded query) finds, paged by sysparm_offset and Link `next`. */
  async records<T>(table: string, query: string, fields: string, signal: AbortSignal): Promise<T[]> {
    const path = `/api/now/table/${table}`;
    const items: T[] = [];
    let url: string | undefined = `${path}?${new URLSearchParams({
      sysparm_query: query,
      sysparm_fields: fields,
      sysparm_limit: String(PAGE),
      sysparm_offset: '0',
      sysparm_display_value: 'false',
      sysparm_exclude_reference_link: 'true',
    })}`;
    for (let page = 0; url; page++) {
      if (page === MAX_PAGES)
        throw UpstreamError.permanent(`servicenow: GET ${path}: more than ${MAX_PAGES} pages of ${PAGE}`);
      const current: string = url;
      const response = await this.call<unknown>(() => this.http.get(current, { signal }));
      const result = (response.data as { result?: unknown } | undefined)?.result;
      if (!Array.isArray(result)) throw UpstreamError.permanent(`servicenow: GET ${path}: no result list`);
      items.push(...(result as T[]));
      url = nextPageLink('servicenow', path, this.base, response.headers.link);
    }
    return items;
  }

  async change(sysId: string, signal: AbortSignal): Promise<ServicenowChange> {
    const { data } = await this.call(() =>
      this.http.get(`/api/now/table/change_request/${sysId}`, {
        params: { sysparm_fields: CHANGE_FIELDS, sysparm_display_value: 'false' },
        signal,
      }),
    );
    return changeOf('GET change_request', data);
  }

  async createChange(fields: Record<string, string>, signal: AbortSignal): Promise<ServicenowChange> {
    const { data } = await this.call(() =>
      this.http.post('/api/now/table/change_request', fields, {
        params: { sysparm_fields: CHANGE_FIELDS, sysparm_display_value: 'false' },
        signal,
      }),
    );
    return changeOf('POST change_request', data);
  }

  /** Adds a work note to the change (PATCH with `work_notes`: ServiceNow appends it to the journal). */
  async workNote(sysId: string, text: string, signal: AbortSignal): Promise<void> {
    await this.call(() =>
      this.http.patch(
        `/api/now/table/change_request/${sysId}`,
        { work_notes: text },
        { params: { sysparm_fields: 'sys_id' }, signal },
      ),
    );
  }
}

function changeOf(request: string, data: unknown): ServicenowChange {
  const result = (data as { result?: unknown } | undefined)?.result;
  return replyFields('servicenow', request, result, {
    sys_id: 'string',
    number: 'string',
    state: 'string',
    approval: 'string',
    sys_created_on: 'string',
    sys_created_by: 'string',
  });
}
