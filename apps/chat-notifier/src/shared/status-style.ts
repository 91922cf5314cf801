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
  return Object.hasOwn(ARGO_PHASES, v) ? ARGO_PHASES[v] : value;
}

export interface StatusStyle {
  /** Attachment bar colour. Slack renders named colours other than good/warning/danger as grey: hex only. */
  color: string;
  emoji: string;
  /** The emoji as a character, for services that show `:shortcodes:` as text (Discord, Teams, Google Chat, email). */
  symbol: string;
  label: string;
}

export const STATUS_STYLES: Record<Status, StatusStyle> = {
  succeeded: { color: '#2EB67D', emoji: ':white_check_mark:', symbol: '\u2705', label: 'Succeeded' },
  failed: { color: '#E01E5A', emoji: ':x:', symbol: '\u274C', label: 'Failed' },
  running: { color: '#36C5F0', emoji: ':hourglass_flowing_sand:', symbol: '\u23F3', label: 'Running' },
  warning: { color: '#ECB22E', emoji: ':warning:', symbol: '\u26A0\uFE0F', label: 'Warning' },
  info: { color: '#616061', emoji: ':information_source:', symbol: '\u2139\uFE0F', label: 'Info' },
};
