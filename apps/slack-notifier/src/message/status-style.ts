export const STATUSES = ['succeeded', 'failed', 'running', 'warning', 'info'] as const;
export type Status = (typeof STATUSES)[number];

/** Argo node and workflow phases (`{{workflow.status}}`), so exit handlers can pass the phase straight in. */
const ARGO_PHASES: Record<string, Status> = {
  succeeded: 'succeeded',
  failed: 'failed',
  error: 'failed',
  running: 'running',
  pending: 'running',
  skipped: 'info',
  omitted: 'info',
};

/** `Failed` → `failed`, `Error` → `failed`, `Pending` → `running`; unknown values are returned unchanged. */
export function normalizeStatus(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const v = value.trim().toLowerCase();
  if ((STATUSES as readonly string[]).includes(v)) return v;
  return ARGO_PHASES[v] ?? value;
}

export interface StatusStyle {
  /** Attachment bar colour. Slack renders named colours other than good/warning/danger as grey: hex only. */
  color: string;
  emoji: string;
  label: string;
}

export const STATUS_STYLES: Record<Status, StatusStyle> = {
  succeeded: { color: '#2EB67D', emoji: ':white_check_mark:', label: 'Succeeded' },
  failed: { color: '#E01E5A', emoji: ':x:', label: 'Failed' },
  running: { color: '#36C5F0', emoji: ':hourglass_flowing_sand:', label: 'Running' },
  warning: { color: '#ECB22E', emoji: ':warning:', label: 'Warning' },
  info: { color: '#616061', emoji: ':information_source:', label: 'Info' },
};
