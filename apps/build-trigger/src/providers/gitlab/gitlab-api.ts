import { clipMasked } from '@app/plugin-kit/upstream/error-detail.js';

/** The parts of the GitLab pipelines API the plugin reads. */

export interface GitLabPipeline {
  id: number;
  iid?: number;
  project_id?: number;
  status: string;
  ref?: string;
  source?: string;
  /** Set by `workflow: name:` in .gitlab-ci.yml (the plugin recommends `name: $ARGO_KEY`). */
  name?: string | null;
  web_url: string;
  created_at?: string;
  updated_at?: string;
  started_at?: string | null;
  finished_at?: string | null;
  /** Seconds. */
  duration?: number | null;
  detailed_status?: { group?: string; label?: string; text?: string };
}

export interface GitLabVariable {
  key: string;
  value: string;
  variable_type?: string;
}

/**
 * `:id` in GitLab paths: the numeric id, or the full path URL-encoded exactly once (`group%2Fsub%2Fproj`).
 * Axios sends the path as given, so `%2F` reaches GitLab unchanged.
 */
export function projectId(project: string | number): string {
  const text = String(project);
  return /^\d+$/.test(text) ? text : encodeURIComponent(text);
}

/** GitLab error bodies: `{"message":"404 Project Not Found"}`, `{"message":{"base":["…"]}}`, `{"error":"ref is missing"}`, or text. */
export function gitlabErrorDetail(data: unknown): string | undefined {
  if (typeof data === 'string') return clipMasked(data.trim(), 200) || undefined;
  if (!data || typeof data !== 'object') return undefined;
  const body = data as { message?: unknown; error?: unknown };
  const flatten = (value: unknown): string | undefined => {
    if (typeof value === 'string') return value;
    if (Array.isArray(value)) return value.map(flatten).filter(Boolean).join('; ');
    if (value && typeof value === 'object') {
      return Object.entries(value)
        .map(([k, v]) => (k === 'base' ? flatten(v) : `${k}: ${flatten(v)}`))
        .join('; ');
    }
    return undefined;
  };
  const detail = flatten(body.message) ?? flatten(body.error);
  return detail === undefined ? undefined : clipMasked(detail, 300);
}
