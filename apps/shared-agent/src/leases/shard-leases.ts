// Which replica works which TaskSets: the TaskSets are spread over a fixed number of shards (a hash of
// namespace/name), and each shard belongs to the replica holding its Lease (coordination.k8s.io/v1). A replica
// proves it is alive by renewing its own member Lease; a shard Lease needs no renewal of its own, it is valid
// while its holder's member Lease is. A holder whose member Lease has not changed for a lease period (by this
// replica's clock, as client-go's leader election judges it, so clocks need not agree) is dead and its shards
// are taken with a compare-and-swap on the Lease's resourceVersion: one owner per shard at a time. Each replica
// holds about shards / live replicas, releasing extras (after finishing their tasks) when others join.
// Ownership itself is decided on this replica's monotonic clock: a shard is worked only while less than 2/3 of
// the lease duration has passed since the last member renewal that succeeded, counted from when that request
// was sent (the write cannot have landed, and no other replica can have seen it, before then). A replica whose
// API connection hangs, or that was paused, drops its shards at the first look past that and takes them anew.
import { fnv32a, KubeError, type KubeClient } from '@app/argo-agent';
import type { PluginLogger } from '@app/plugin-kit';
import type { AgentMetrics } from '../observe/metrics.js';
import { KIND_LABEL, LEASE_LABEL, leaseObject, microTime, type Lease } from './lease-object.js';
import { SCOPE_ANNOTATION, STARTED_ANNOTATION, scopeConflict } from './lease-scope.js';
import { MemberLease } from './member-lease.js';

export { leaseName } from './lease-object.js';

export interface LeaseSettings {
  namespace: string;
  prefix: string;
  shards: number;
  identity: string;
  durationMs: number;
  /** What the replicas sharing these Leases must agree on (lease-scope.ts). */
  scope: string;
}

/** The agent's side of shard ownership. */
export interface ShardOwner {
  acquired(shards: number[]): void;
  lost(shards: number[]): void;
  /** Shards paused (see ShardLeases.pauseIfStale) are worked again: offer what was held back meanwhile. */
  resumed(shards: number[]): void;
  /** Before a shard is handed to another replica: stop its new tasks, finish its in-flight ones, write them. */
  releasing(shard: number): Promise<void>;
}

/** The shard of a TaskSet. */
export function shardOf(namespace: string, name: string, shards: number): number {
  return fnv32a(`${namespace}/${name}`) % shards;
}

export class ShardLeases {
  private readonly held = new Map<number, Lease>();
  private readonly releasingShards = new Set<number>();
  /** Lease name → what it said last time and when that was first seen here. */
  private readonly observed = new Map<string, { record: string; since: number }>();
  /** Monotonic time at which the last successful member renewal was sent; -Infinity before the first. */
  private lastRenew = -Infinity;
  private liveMembers = 1;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private stopped = false;
  private ticked = false;
  private readonly member: MemberLease;
  /** Why this replica works no shard for good (another process has its identity). */
  private refusal: string | undefined;
  /** Why it works no shard for now (replicas of another scope, older than this one, are alive). */
  private blocked: string | undefined;
  private waitingForMember = false;
  /** No task starts: the last successful renewal is too old (see pauseIfStale). */
  private paused = false;

  constructor(
    private readonly client: KubeClient,
    private readonly settings: LeaseSettings,
    private readonly owner: ShardOwner,
    private readonly metrics: AgentMetrics,
    private readonly logger: PluginLogger,
    /** Wall-clock time, only for the Lease's renewTime and acquireTime. */
    private readonly wallClock: () => number = Date.now,
    /** The clock ownership and others' Leases are judged by (monotonic). */
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.member = new MemberLease(client, settings, wallClock, clock);
  }

  private get collection(): string {
    return `/apis/coordination.k8s.io/v1/namespaces/${this.settings.namespace}/leases`;
  }

  private shardName(shard: number): string {
    return `${this.settings.prefix}-shard-${shard}`;
  }

  /** How often the member Lease is renewed and the shards looked at. */
  get periodMs(): number {
    return Math.max(500, Math.floor(this.settings.durationMs / 5));
  }

  /** Whether this replica works the shard now: it holds its Lease and renewed its member Lease in time. */
  owns(shard: number): boolean {
    this.pauseIfStale();
    return !this.paused && this.holds(shard);
  }

  /**
   * Whether this replica holds the shard's Lease, paused or not: what it reads and watches of the shard's
   * TaskSets while paused is kept, and worked once the shard resumes.
   */
  holds(shard: number): boolean {
    return this.held.has(shard) && !this.releasingShards.has(shard);
  }

  /** How long after the last successful renewal (sent) this replica stops working its shards. */
  private get ownershipMs(): number {
    return (this.settings.durationMs * 2) / 3;
  }

  /**
   * Others take our shards once our member Lease looks dead to them: stop starting tasks before they may. The
   * shards are paused, not dropped: what this replica knows of their TaskSets (tasks offered, results not
   * written yet) stays, and they resume if the next round finds their Leases as this replica left them.
   */
  private pauseIfStale(): void {
    if (this.paused || this.held.size === 0 || this.clock() - this.lastRenew <= this.ownershipMs) return;
    this.paused = true;
    this.logger.warn(
      { shards: this.heldShards() },
      'shards paused: member Lease not renewed within 2/3 of the lease duration',
    );
  }

  heldShards(): number[] {
    return [...this.held.keys()].sort((a, b) => a - b);
  }

  get members(): number {
    return this.liveMembers;
  }

  /**
   * Why the replica is not ready, as far as its Leases go: it refuses or waits to work, or has not looked yet.
   * Holding no shard is no such reason: a replica beyond the shard count holds none by design, and one that
   * joined holds none until the others hand theirs over.
   */
  get notReady(): string | undefined {
    if (this.refusal ?? this.blocked) return this.refusal ?? this.blocked;
    if (this.waitingForMember)
      return `the member Lease ${this.member.name} exists: waiting a lease period to see whether its writer is gone`;
    return this.ticked ? undefined : 'shard Leases not read yet';
  }

  start(): void {
    const loop = () => {
      if (this.stopped) return;
      this.ticking = this.tick()
        .catch((err: unknown) => this.logger.warn({ err }, 'lease round failed'))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(loop, this.periodMs);
        });
    };
    loop();
  }

  /** One round: renew the member Lease, see who is alive, keep, release or take shards. */
  async tick(): Promise<void> {
    if (this.refusal) return;
    this.pauseIfStale();
    const sent = this.clock();
    const renewal = await this.member.renew();
    if (renewal.kind === 'refused') return this.refuse(renewal.reason);
    if (renewal.kind === 'failed') this.logger.warn({ err: renewal.err }, 'could not renew the member Lease');
    if (renewal.kind === 'waiting' && !this.waitingForMember)
      this.logger.info(
        { lease: this.member.name },
        'the member Lease of this identity exists: waiting a lease period to see whether its writer is gone',
      );
    this.waitingForMember = renewal.kind === 'waiting';
    const renewed = renewal.kind === 'renewed';
    if (renewed) this.lastRenew = sent;
    this.pauseIfStale(); // the renewal may have hung
    const leases = await this.client.get<{ items: Lease[] }>(
      `${this.collection}?labelSelector=${encodeURIComponent(`${LEASE_LABEL}=${this.settings.prefix}`)}`,
    );
    // What the list shows is judged at the time it arrived.
    const now = this.clock();
    const members = new Map<string, Lease>();
    const shards = new Map<number, Lease>();
    for (const lease of leases.items) {
      this.observe(lease, now);
      const kind = lease.metadata.labels?.[KIND_LABEL];
      if (kind === 'member' && lease.spec?.holderIdentity) members.set(lease.spec.holderIdentity, lease);
      if (kind === 'shard') {
        const n = Number(lease.metadata.name.slice(`${this.settings.prefix}-shard-`.length));
        if (Number.isInteger(n) && n >= 0 && n < this.settings.shards) shards.set(n, lease);
      }
    }
    const alive = (identity: string): boolean => {
      if (identity === this.settings.identity) return now - this.lastRenew <= this.ownershipMs;
      const member = members.get(identity);
      return member !== undefined && !this.expired(member, now);
    };
    // Live replicas that must not work beside this one; the younger side of each such pair waits.
    const others = [...members.entries()].filter(([id]) => id !== this.settings.identity && alive(id));
    const conflicts = others.map(([id, lease]) => ({
      id,
      lease,
      why: scopeConflict(this.settings.scope, lease.metadata.annotations?.[SCOPE_ANNOTATION]),
    }));
    const older = conflicts.find((c) => c.why && this.startedBefore(c.lease, c.id));
    this.block(older && `${older.why} (replica ${older.id})`);
    if (this.blocked) {
      if (this.held.size > 0) this.lose(this.heldShards(), 'replicas of another scope are alive');
      this.ticked = true;
      return;
    }
    this.liveMembers = 1 + conflicts.filter((c) => !c.why).length;

    // A shard whose Lease another replica wrote (we looked dead to it) is no longer ours.
    const taken = this.heldShards().filter((n) => {
      const lease = shards.get(n);
      return (
        lease?.spec?.holderIdentity !== this.settings.identity ||
        lease.metadata.resourceVersion !== this.held.get(n)?.metadata.resourceVersion
      );
    });
    if (taken.length) this.lose(taken, 'held by another replica');
    const fresh = renewed && now - this.lastRenew <= this.ownershipMs;
    if (this.paused && fresh && !this.stopped) {
      this.paused = false;
      if (this.held.size > 0) {
        this.logger.info(
          { shards: this.heldShards() },
          'shards resumed: their Leases are as this replica left them',
        );
        this.owner.resumed(this.heldShards());
      }
    }
    if (!fresh || this.stopped) {
      this.ticked = true;
      return;
    }

    const target = Math.ceil(this.settings.shards / this.liveMembers);
    const extra = this.held.size - this.releasingShards.size - target;
    if (extra > 0) {
      const extras = this.heldShards()
        .filter((n) => !this.releasingShards.has(n))
        .slice(-extra);
      for (const n of extras) void this.releaseGracefully(n);
    }
    const wanted = target - this.held.size;
    if (wanted > 0) {
      const offset = fnv32a(this.settings.identity) % this.settings.shards;
      const free: number[] = [];
      for (let i = 0; i < this.settings.shards && free.length < wanted; i++) {
        const n = (offset + i) % this.settings.shards;
        if (this.held.has(n)) continue;
        const lease = shards.get(n);
        const holder = lease?.spec?.holderIdentity ?? '';
        if (!lease || holder === '' || holder === this.settings.identity || !alive(holder)) {
          // A holder without a member Lease may be starting: its shard is free only once it has not moved
          // for a lease period.
          if (lease && holder && !members.has(holder) && !this.expired(lease, now)) continue;
          free.push(n);
        }
      }
      const acquired: number[] = [];
      for (const n of free) if (await this.acquire(n, shards.get(n))) acquired.push(n);
      if (acquired.length) {
        this.logger.info(
          { shards: acquired, holding: this.held.size, members: this.liveMembers },
          'shards acquired',
        );
        this.owner.acquired(acquired);
      }
    }
    this.ticked = true;
  }

  /** Graceful stop: no more rounds; every shard Lease released and the member Lease deleted. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.ticking;
    const shards = this.heldShards();
    await Promise.all(shards.map((n) => this.release(n)));
    if (shards.length) this.logger.info({ shards }, 'shards released');
    await this.member
      .delete()
      .catch((err: unknown) => this.logger.warn({ err }, 'could not delete the member Lease'));
  }

  /** Whether the other member started before this replica (ties: the lower identity). */
  private startedBefore(lease: Lease, identity: string): boolean {
    const other = lease.metadata.annotations?.[STARTED_ANNOTATION] ?? '';
    const own = this.member.startedAt;
    return other < own || (other === own && identity < this.settings.identity);
  }

  private block(reason: string | undefined): void {
    if (reason === this.blocked) return;
    if (reason) this.logger.error({ reason }, 'not working any shard');
    else this.logger.info({}, 'working shards again: no replica of another scope is alive');
    this.blocked = reason;
  }

  /** For good: another process has this identity. No shard, no renewal, not ready. */
  private refuse(reason: string): void {
    this.refusal = reason;
    this.logger.error({ reason }, 'not working any shard');
    if (this.held.size > 0) this.lose(this.heldShards(), 'another replica has this identity');
    this.ticked = true;
    clearTimeout(this.timer);
  }

  private expired(lease: Lease, now: number): boolean {
    const since = this.observed.get(lease.metadata.name)?.since ?? now;
    const seconds = lease.spec?.leaseDurationSeconds ?? this.settings.durationMs / 1000;
    return now - since > seconds * 1000;
  }

  private observe(lease: Lease, now: number): void {
    const record = `${lease.spec?.holderIdentity ?? ''}|${lease.spec?.renewTime ?? ''}|${lease.metadata.resourceVersion ?? ''}`;
    const last = this.observed.get(lease.metadata.name);
    if (last?.record !== record) this.observed.set(lease.metadata.name, { record, since: now });
  }

  private async acquire(shard: number, current: Lease | undefined): Promise<boolean> {
    const name = this.shardName(shard);
    const previous = current?.spec?.holderIdentity ?? '';
    const now = this.wallClock();
    const spec = {
      holderIdentity: this.settings.identity,
      leaseDurationSeconds: Math.ceil(this.settings.durationMs / 1000),
      acquireTime: microTime(now),
      renewTime: microTime(now),
      leaseTransitions:
        (current?.spec?.leaseTransitions ?? 0) + (previous && previous !== this.settings.identity ? 1 : 0),
    };
    try {
      const written = current
        ? await this.client.call<Lease>(
            'PUT',
            `${this.collection}/${name}`,
            leaseObject(this.settings.prefix, name, 'shard', spec, current.metadata.resourceVersion),
          )
        : await this.client.call<Lease>(
            'POST',
            this.collection,
            leaseObject(this.settings.prefix, name, 'shard', spec),
          );
      this.held.set(shard, written);
      this.metrics.leaseChanges.inc({ change: 'acquired' });
      if (previous && previous !== this.settings.identity)
        this.logger.info({ shard, from: previous }, 'shard taken over');
      return true;
    } catch (err) {
      // 409: another replica was quicker.
      if (!(err instanceof KubeError && err.status === 409))
        this.logger.warn({ err, shard }, 'could not take a shard');
      return false;
    }
  }

  private async releaseGracefully(shard: number): Promise<void> {
    this.releasingShards.add(shard);
    try {
      await this.owner.releasing(shard);
      await this.release(shard);
      this.logger.info({ shard, members: this.liveMembers }, 'shard handed over');
    } finally {
      this.releasingShards.delete(shard);
    }
  }

  /** Writes the Lease free (holder ""): whoever looks next takes it at once. */
  private async release(shard: number): Promise<void> {
    const lease = this.held.get(shard);
    if (!lease) return;
    this.held.delete(shard);
    this.metrics.leaseChanges.inc({ change: 'released' });
    const name = this.shardName(shard);
    try {
      await this.client.call(
        'PUT',
        `${this.collection}/${name}`,
        leaseObject(
          this.settings.prefix,
          name,
          'shard',
          { ...lease.spec, holderIdentity: '' },
          lease.metadata.resourceVersion,
        ),
      );
    } catch (err) {
      // Someone took it meanwhile, or the API is away: either way it frees itself once we stop renewing.
      this.logger.warn({ err, shard }, 'could not release a shard Lease');
    }
  }

  private lose(shards: number[], why: string): void {
    for (const n of shards) {
      this.held.delete(n);
      this.releasingShards.delete(n);
      this.metrics.leaseChanges.inc({ change: 'lost' });
    }
    this.logger.warn({ shards, why }, 'shards lost');
    this.owner.lost(shards);
  }
}
