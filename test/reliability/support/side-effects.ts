import { FaultProxy, type FaultPlan } from './fault-proxy.js';
import { asUrl, launch, type LaunchOptions, type PluginRun } from './plugin-run.js';
import type { PluginTarget } from './targets.js';

/** A plugin whose counted upstream (conformance.json countUpstreamEnv) is reached through a fault proxy. */
export interface ProxiedRun {
  run: PluginRun;
  proxy: FaultProxy;
}

/**
 * Starts the plugin with a fault proxy in front of the counted upstream (every env URL on its origin); the
 * caller's `rewriteEnv` then sees the proxied env.
 */
export async function launchBehindProxy(
  target: PluginTarget,
  plan: FaultPlan,
  options: LaunchOptions,
): Promise<ProxiedRun> {
  const counter = new URL(target.countUrl!, 'http://counter');
  const watch = {
    method: counter.searchParams.get('method') ?? 'POST',
    path: counter.searchParams.get('path') ?? '/',
  };
  let proxy: FaultProxy | undefined;
  try {
    const run = await launch(target, {
      ...options,
      rewriteEnv: async (env) => {
        const upstream = new URL(asUrl(env[target.countUpstreamEnv!]));
        proxy = new FaultProxy(upstream.origin, plan, watch);
        await proxy.start();
        const via = new URL(proxy.url).host;
        // Every env value on the counted upstream (a URL, or a bare host:port like ARGO_SERVER) goes through the proxy.
        const rewrite = (v: string): string =>
          v.startsWith(upstream.origin)
            ? proxy!.via(v)
            : v.startsWith(upstream.host)
              ? via + v.slice(upstream.host.length)
              : v;
        const proxied = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, rewrite(v)]));
        return options.rewriteEnv ? options.rewriteEnv(proxied) : proxied;
      },
    });
    return { run, proxy: proxy! };
  } catch (err) {
    await proxy?.close();
    throw err;
  }
}

export interface SideEffects {
  /** Requests the stand-in's counter saw (conformance.json countUrl). */
  counted: number;
  /** Of those, answered 303 See Other: the upstream pointed at what it already had (e.g. Jenkins merging a repeated trigger into the waiting queue item), nothing new was made. */
  merged: number;
  /** New side effects: counted − merged. */
  effects: number;
}

/** The side effects since `before` (the counter's value then), net of requests the upstream merged. */
export async function sideEffects({ run, proxy }: ProxiedRun, before: number): Promise<SideEffects> {
  const counted = (await run.count())! - before;
  const merged = proxy.watched.get(303) ?? 0;
  return { counted, merged, effects: counted - merged };
}

export function describeEffects(e: SideEffects): string {
  return e.merged > 0
    ? `${e.effects} side effects (${e.counted} trigger requests, ${e.merged} merged by the upstream: 303 See Other)`
    : `${e.effects} side effects`;
}
