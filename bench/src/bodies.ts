import { executeArgs } from '@app/local-agent/requests.js';

/** A template addressed to another plugin: every sidecar in the agent pod receives these too. */
export const FOREIGN_PLUGIN = { 'other-plugin': { text: 'addressed to someone else', retries: 3 } };

/**
 * The body of one template.execute call as Argo's agent sends it. `uid` makes the execution key: a new uid
 * is a new execution (new workflow), the same uid and body is a requeued poll of the same node.
 */
export function requestBody(plugin: Record<string, unknown>, uid: string): string {
  return JSON.stringify(
    executeArgs(plugin, {
      workflow: { name: `bench-${uid.slice(0, 8)}`, namespace: 'argo', uid },
      templateName: 'bench',
    }),
  );
}

let sequence = 0;
/** A uid never used before in this run (UUID-shaped, like Kubernetes uids). */
export function freshUid(): string {
  sequence++;
  const hex = (sequence.toString(16) + Date.now().toString(16)).padStart(20, '0').slice(-20);
  return `b0000000-${hex.slice(0, 4)}-${hex.slice(4, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 20)}0000`;
}
