// A replica's own member Lease, written only by the process that created it: every renewal is an update
// conditioned on the resourceVersion of its last write, so a second process with the same AGENT_IDENTITY
// (which would take the same shards as its own) is found at the first renewal either makes after the other
// wrote. A process that finds the Lease of its identity already there (a replica restarted in the same pod,
// or a live duplicate) waits until it has not changed for a lease period before taking it over; if it changes
// meanwhile, another process renews it, and this one refuses to work.
import { randomUUID } from 'node:crypto';
import { KubeError, type KubeClient } from '@app/argo-agent';
import { leaseName, leaseObject, microTime, type Lease } from './lease-object.js';
import { REPLICA_ANNOTATION, SCOPE_ANNOTATION, STARTED_ANNOTATION } from './lease-scope.js';

export type Renewal =
  | { kind: 'renewed' }
  /** The Lease of this identity was found; whether its writer is gone is not known yet. */
  | { kind: 'waiting' }
  | { kind: 'refused'; reason: string }
  | { kind: 'failed'; err: unknown };

export interface MemberSettings {
  namespace: string;
  prefix: string;
  identity: string;
  durationMs: number;
  scope: string;
}

export class MemberLease {
  readonly name: string;
  private readonly replica = randomUUID();
  private readonly started: string;
  /** The Lease as this process last wrote it. */
  private written: Lease | undefined;
  /** Another writer's Lease found at start: what it said and when that was first seen (monotonic). */
  private found: { record: string; since: number } | undefined;

  constructor(
    private readonly client: KubeClient,
    private readonly settings: MemberSettings,
    private readonly wallClock: () => number,
    private readonly clock: () => number,
  ) {
    this.name = leaseName(`${settings.prefix}-member-${settings.identity}`);
    this.started = microTime(wallClock());
  }

  private get path(): string {
    return `/apis/coordination.k8s.io/v1/namespaces/${this.settings.namespace}/leases/${this.name}`;
  }

  /** When this process started, as its Lease says (a tie-break between replicas that must not work together). */
  get startedAt(): string {
    return this.started;
  }

  /** Whether a Lease of the list is this replica's own, as this process wrote it. */
  isOwn(lease: Lease): boolean {
    return lease.metadata.annotations?.[REPLICA_ANNOTATION] === this.replica;
  }

  async renew(): Promise<Renewal> {
    const spec = {
      holderIdentity: this.settings.identity,
      leaseDurationSeconds: Math.ceil(this.settings.durationMs / 1000),
      renewTime: microTime(this.wallClock()),
    };
    const annotations = {
      [SCOPE_ANNOTATION]: this.settings.scope,
      [STARTED_ANNOTATION]: this.started,
      [REPLICA_ANNOTATION]: this.replica,
    };
    const lease = (base: Lease | undefined) =>
      leaseObject(
        this.settings.prefix,
        this.name,
        'member',
        { acquireTime: spec.renewTime, ...base?.spec, ...spec },
        base?.metadata.resourceVersion,
        annotations,
      );
    try {
      if (this.written) {
        this.written = await this.client.call<Lease>('PUT', this.path, lease(this.written));
        return { kind: 'renewed' };
      }
      const existing = await this.client.find<Lease>(this.path);
      if (existing && !this.isOwn(existing)) {
        const verdict = this.judge(existing);
        if (verdict) return verdict;
      }
      this.written = existing
        ? await this.client.call<Lease>('PUT', this.path, lease(existing))
        : await this.client.call<Lease>(
            'POST',
            this.path.slice(0, this.path.lastIndexOf('/')),
            lease(undefined),
          );
      return { kind: 'renewed' };
    } catch (err) {
      if (!(err instanceof KubeError && err.status === 409)) return { kind: 'failed', err };
      // Changed since this process last wrote it: by itself (an answer lost on the way), or by another.
      const now = await this.client.find<Lease>(this.path).catch(() => undefined);
      if (now && this.isOwn(now)) {
        this.written = now;
        return { kind: 'failed', err };
      }
      if (!this.written) return { kind: 'waiting' }; // created by another meanwhile: judged next round
      return { kind: 'refused', reason: this.duplicate() };
    }
  }

  /** Deletes the Lease if it is still this process's. */
  async delete(): Promise<void> {
    if (!this.written) return;
    const current = await this.client.find<Lease>(this.path);
    if (current && this.isOwn(current)) await this.client.call('DELETE', this.path);
  }

  /** Another writer's Lease: wait while it may be alive, refuse once it changes, take it once it has not for a lease period. */
  private judge(existing: Lease): Renewal | undefined {
    const record = `${existing.metadata.resourceVersion}|${existing.spec?.renewTime}`;
    const now = this.clock();
    if (!this.found) {
      this.found = { record, since: now };
      return { kind: 'waiting' };
    }
    if (this.found.record !== record) return { kind: 'refused', reason: this.duplicate() };
    const seconds = existing.spec?.leaseDurationSeconds ?? this.settings.durationMs / 1000;
    return now - this.found.since > seconds * 1000 ? undefined : { kind: 'waiting' };
  }

  private duplicate(): string {
    return `another replica renews the member Lease ${this.name} of AGENT_IDENTITY=${this.settings.identity}: every replica needs an identity of its own (the pod name); this one works no shard`;
  }
}
