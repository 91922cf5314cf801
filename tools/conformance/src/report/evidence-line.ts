import type { Evidence } from '../rule.js';

/** `what → 403, 2 ms: body — note` */
export function evidenceLine(e: Evidence): string {
  const facts = [
    e.status !== undefined ? String(e.status) : undefined,
    e.ms !== undefined ? `${e.ms} ms` : undefined,
  ]
    .filter(Boolean)
    .join(', ');
  return [
    e.what,
    facts ? ` → ${facts}` : '',
    e.body !== undefined ? `: ${e.body}` : '',
    e.note ? ` — ${e.note}` : '',
  ].join('');
}
