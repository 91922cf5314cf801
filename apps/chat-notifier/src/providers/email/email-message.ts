import type { EmailConfig } from './email-block.dto.js';
import { STATUS_STYLES } from '../../shared/status-style.js';

export interface EmailContent {
  subject: string;
  text: string;
  html: string;
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * One template, two forms: the same parts (status line, title, text, fields) as plain text and as simple
 * inline-styled HTML (mail clients ignore style sheets), the status colour on a left border.
 */
export function renderEmail(config: EmailConfig, workflow: { name: string }): EmailContent {
  const style = config.status ? STATUS_STYLES[config.status] : undefined;
  const statusLine = style ? `${style.symbol} ${style.label}` : undefined;
  const fields = config.fields ?? [];
  const subject =
    config.subject ?? config.title ?? `[Argo] ${style ? `${style.label}: ` : ''}${workflow.name}`;
  const text = [
    statusLine,
    config.title,
    config.text,
    fields.length > 0 ? fields.map((f) => `${f.name}: ${f.value}`).join('\n') : undefined,
  ]
    .filter((p): p is string => !!p)
    .join('\n\n');
  const rows = fields
    .map(
      (f) =>
        `<tr><th align="left" style="padding:2px 12px 2px 0">${escape(f.name)}</th><td>${escape(f.value)}</td></tr>`,
    )
    .join('');
  const html = [
    `<div style="border-left:4px solid ${style?.color ?? '#DDDDDD'};padding:4px 12px;font-family:sans-serif">`,
    statusLine && `<p style="margin:0;color:${style!.color};font-weight:bold">${escape(statusLine)}</p>`,
    config.title && `<h2 style="margin:8px 0">${escape(config.title)}</h2>`,
    config.text && `<p style="white-space:pre-wrap">${escape(config.text)}</p>`,
    rows && `<table>${rows}</table>`,
    '</div>',
  ]
    .filter((p): p is string => !!p)
    .join('\n');
  return { subject, text, html };
}
