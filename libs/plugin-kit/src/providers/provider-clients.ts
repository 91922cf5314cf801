import { UpstreamClients, type UpstreamAccess, type UpstreamKind } from '../config/named-upstreams.js';
import type { AnyProviderSettings } from './provider-definition.js';
import type { ProviderTable } from './provider-table.js';

/**
 * The clients of every provider's named upstreams, one per (provider, upstream), created on first use and kept.
 * A body chooses among the configured ones by name only (pickUpstream's PluginConfigError otherwise).
 */
export class ProviderClients<C> {
  private readonly clients = new Map<string, UpstreamClients<unknown, C>>();

  constructor(
    table: ProviderTable<AnyProviderSettings & { upstreams: UpstreamKind }>,
    /** A provider's upstreams by name, as the sidecar read them. */
    upstreamsOf: (key: string) => ReadonlyMap<string, unknown>,
    create: (key: string, upstream: unknown) => C,
  ) {
    for (const { key, upstreams } of table.providers)
      this.clients.set(
        key,
        new UpstreamClients(upstreams, upstreamsOf(key), (upstream) => create(key, upstream)),
      );
  }

  /** The client for the upstream `requested` (the default one when absent) of `provider`. */
  get(provider: string, requested: string | undefined, access: UpstreamAccess): C {
    return this.clients.get(provider)!.get(requested, access);
  }
}
