/** Node phases as Argo spells them (case-sensitive). A plugin replies with Pending, Running, Succeeded or Failed. */
export const NODE_PHASES = [
  'Pending',
  'Running',
  'Succeeded',
  'Skipped',
  'Failed',
  'Error',
  'Omitted',
] as const;

export type NodePhase = (typeof NODE_PHASES)[number];

/**
 * Phases after which the agent stops calling the plugin for that node, and the controller treats the node as
 * done (NodeStatus.Fulfilled). Takes any text, as a TaskSet or a reply carries it; Argo's spelling is
 * case-sensitive.
 */
export function isFinalPhase(phase: string | undefined): boolean {
  return (
    phase === 'Succeeded' ||
    phase === 'Failed' ||
    phase === 'Error' ||
    phase === 'Skipped' ||
    phase === 'Omitted'
  );
}

/** Phases of a Workflow after which it runs no more (its status.phase; Pending and Running are the others). */
export function isWorkflowDone(phase: string | undefined): boolean {
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Error';
}

export function isNodePhase(value: unknown): value is NodePhase {
  return typeof value === 'string' && (NODE_PHASES as readonly string[]).includes(value);
}
