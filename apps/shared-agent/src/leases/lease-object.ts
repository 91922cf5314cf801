// The coordination.k8s.io/v1 Leases of the shared agent: one member Lease per replica, one per shard.

export interface Lease {
  metadata: {
    name: string;
    resourceVersion?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  spec?: {
    holderIdentity?: string;
    leaseDurationSeconds?: number;
    acquireTime?: string;
    renewTime?: string;
    leaseTransitions?: number;
  };
}

export const LEASE_LABEL = 'executor-plugins.dev/shared-agent';
export const KIND_LABEL = 'executor-plugins.dev/lease';

/** metav1.MicroTime's layout: RFC 3339 with exactly six fractional digits. */
export const microTime = (ms: number) => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

/** A DNS-1123 subdomain made of an identity (a pod name already is one). */
export function leaseName(text: string): string {
  const name = text
    .toLowerCase()
    .replace(/[^a-z0-9.-]+/g, '-')
    .replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, '');
  return name.slice(0, 200) || 'agent';
}

/** A Lease of the set `prefix`, to create, or to update when `resourceVersion` is given. */
export function leaseObject(
  prefix: string,
  name: string,
  kind: 'member' | 'shard',
  spec: Lease['spec'],
  resourceVersion?: string,
  annotations?: Record<string, string>,
): Lease {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {
      name,
      labels: { [LEASE_LABEL]: prefix, [KIND_LABEL]: kind },
      ...(annotations && { annotations }),
      ...(resourceVersion && { resourceVersion }),
    },
    spec,
  } as Lease;
}
