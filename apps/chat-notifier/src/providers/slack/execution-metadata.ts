import type { ExecutionContext } from '@app/plugin-kit';

/** Message metadata event type of every message this plugin posts. */
export const NOTIFICATION_EVENT = 'argo_plugin_notification';

/** What the plugin writes into a message's metadata: enough to recognise it after a sidecar restart. */
export interface NotificationPayload {
  /** The kit's execution key: workflow uid + template + body + inputs. */
  key: string;
  workflow_uid: string;
  workflow_name: string;
  workflow_namespace: string;
  template: string;
  /** The file uploaded for this message (shared right after it). */
  file_id?: string;
}

export interface MessageMetadata {
  event_type: string;
  event_payload: Record<string, string>;
}

export function notificationMetadata(
  ctx: Pick<ExecutionContext<object>, 'key' | 'workflow' | 'template'>,
  fileId?: string,
): MessageMetadata {
  const payload: NotificationPayload = {
    key: ctx.key,
    workflow_uid: ctx.workflow.uid,
    workflow_name: ctx.workflow.name,
    workflow_namespace: ctx.workflow.namespace,
    template: ctx.template.name ?? '',
    ...(fileId && { file_id: fileId }),
  };
  return { event_type: NOTIFICATION_EVENT, event_payload: { ...payload } };
}

/** The payload of a message this plugin posted, if it is one. */
export function notificationPayload(message: { metadata?: unknown }): NotificationPayload | undefined {
  const metadata = message.metadata as
    { event_type?: unknown; event_payload?: Record<string, unknown> } | undefined;
  if (metadata?.event_type !== NOTIFICATION_EVENT || typeof metadata.event_payload?.key !== 'string')
    return undefined;
  const p = metadata.event_payload;
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  return {
    key: text(p.key),
    workflow_uid: text(p.workflow_uid),
    workflow_name: text(p.workflow_name),
    workflow_namespace: text(p.workflow_namespace),
    template: text(p.template),
    ...(typeof p.file_id === 'string' && p.file_id && { file_id: p.file_id }),
  };
}
