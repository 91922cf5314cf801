// What a replica's member Lease says about the agent it belongs to, so that replicas which must not share a
// set of shard Leases find each other: another agent (another controller's instance ID, other namespaces) using
// the same Lease names, and, during a rollout, replicas with another AGENT_SHARDS (a TaskSet's shard is its
// hash modulo the count: two counts give one TaskSet two owners and another none).

export const SCOPE_ANNOTATION = 'executor-plugins.dev/agent-scope';
export const STARTED_ANNOTATION = 'executor-plugins.dev/started';
export const REPLICA_ANNOTATION = 'executor-plugins.dev/replica';

export interface AgentScope {
  shards: number;
  instanceId?: string;
  /** The namespaces served; empty for every namespace. */
  namespaces: readonly string[];
}

/** The scope as the annotation holds it: `shards=32;instance=;namespaces=*`. */
export function scopeText(scope: AgentScope): string {
  const namespaces = scope.namespaces.length ? [...scope.namespaces].sort().join(',') : '*';
  return `shards=${scope.shards};instance=${scope.instanceId ?? ''};namespaces=${namespaces}`;
}

/** Why a replica of scope `own` must not work beside a live member of scope `other` (undefined: it may). */
export function scopeConflict(own: string, other: string | undefined): string | undefined {
  // A member without the annotation was written by a version that did not record it: nothing to compare.
  if (other === undefined || other === own) return undefined;
  const field = (text: string, key: string) =>
    text
      .split(';')
      .find((part) => part.startsWith(`${key}=`))
      ?.slice(key.length + 1);
  if (field(own, 'shards') !== field(other, 'shards') && field(own, 'instance') === field(other, 'instance'))
    if (field(own, 'namespaces') === field(other, 'namespaces'))
      return `replicas alive with AGENT_SHARDS=${field(other, 'shards')}, this one has ${field(own, 'shards')}: it works no shard until they have stopped (change AGENT_SHARDS with the Deployment's Recreate strategy, or scale to 0 first)`;
  return `these Leases belong to another agent (${other}; this one: ${own}): give each agent its own AGENT_LEASE_PREFIX or AGENT_LEASE_NAMESPACE`;
}
