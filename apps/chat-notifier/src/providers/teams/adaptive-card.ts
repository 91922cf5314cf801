import type { TeamsConfig } from './teams-block.dto.js';
import type { Status } from '../../shared/status-style.js';
import { STATUS_STYLES } from '../../shared/status-style.js';

/** Adaptive Cards have no free colours: container styles and text colours carry the status. */
const CONTAINER_STYLE: Record<Status, string> = {
  succeeded: 'good',
  failed: 'attention',
  running: 'accent',
  warning: 'warning',
  info: 'emphasis',
};
const TEXT_COLOR: Record<Status, string> = {
  succeeded: 'good',
  failed: 'attention',
  running: 'accent',
  warning: 'warning',
  info: 'default',
};

type Element = Record<string, unknown>;

/** The activity a Workflows webhook takes: one Adaptive Card (1.4, what Teams renders) as an attachment. */
export interface TeamsActivity {
  type: 'message';
  attachments: Array<{ contentType: string; contentUrl: null; content: Element }>;
}

/**
 * A body as an Adaptive Card: a container in the status style with the status line and the title, the text,
 * the fields as a FactSet, and @mentions (each `<at>` text matched by an `msteams.entities` mention).
 */
export function renderAdaptiveCard(config: TeamsConfig): TeamsActivity {
  const style = config.status ? STATUS_STYLES[config.status] : undefined;
  const head: Element[] = [];
  if (style)
    head.push({
      type: 'TextBlock',
      text: `${style.symbol} ${style.label}`,
      weight: 'Bolder',
      color: TEXT_COLOR[config.status!],
    });
  if (config.title)
    head.push({ type: 'TextBlock', text: config.title, size: 'Medium', weight: 'Bolder', wrap: true });
  const body: Element[] = [];
  if (head.length > 0)
    body.push({
      type: 'Container',
      ...(config.status && { style: CONTAINER_STYLE[config.status], bleed: true }),
      items: head,
    });
  if (config.text) body.push({ type: 'TextBlock', text: config.text, wrap: true });
  if (config.fields)
    body.push({ type: 'FactSet', facts: config.fields.map(({ name, value }) => ({ title: name, value })) });
  const mentions = (config.mentions ?? []).map((address) => ({
    type: 'mention',
    text: `<at>${address}</at>`,
    mentioned: { id: address, name: address },
  }));
  if (mentions.length > 0)
    body.push({ type: 'TextBlock', text: mentions.map((m) => m.text).join(' '), wrap: true });
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body,
          msteams: { width: 'Full', ...(mentions.length > 0 && { entities: mentions }) },
        },
      },
    ],
  };
}
