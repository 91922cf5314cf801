import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AgentPlugin } from '@app/argo-agent/plugin-rpc-client.js';

/** What the demo gives an app's upstream starter: the plugins of the "agent pod", filled in once they run. */
export interface DemoContext {
  plugins: AgentPlugin[];
  /** The factor the demo applies to requeues (for stand-ins that run workflows themselves). */
  timeScale: number;
  /**
   * Where a stand-in reports what it does by itself (e.g. the node tree of a workflow a binding submitted).
   * `npm run demo` and `npm run stand-in` print it; left out (tests), nothing is printed.
   */
  print?: (text: string) => void;
}

/** A workflow that an upstream ran by itself during the demo (e.g. submitted by a WorkflowEventBinding). */
export interface DemoBackgroundRun {
  name: string;
  phase: string;
  /** What produced it, e.g. `binding ci-finished`. */
  origin: string;
}

export interface DemoUpstreams {
  /** Sidecar environment pointing the plugin at its stand-ins. */
  env: Record<string, string>;
  /**
   * Waits for work the upstream does in the background and lists every workflow it ran so far (optional; the
   * demo calls it after each pass).
   */
  settle?(): Promise<DemoBackgroundRun[]>;
  close(): Promise<void>;
}

/** What `apps/<app>/demo/upstreams.ts` exports as `startDemoUpstreams`. */
export type StartDemoUpstreams = (context: DemoContext) => Promise<DemoUpstreams>;

/** The upstreams of a plugin that calls none (it has no demo/upstreams.ts): nothing started, no variable set. */
export const noUpstreams: StartDemoUpstreams = () =>
  Promise.resolve({ env: {}, close: () => Promise.resolve() });

/** `startDemoUpstreams` of `<appDir>/demo/upstreams.ts`, or `noUpstreams` for a plugin without that file. */
export async function demoUpstreamsOf(appDir: string): Promise<StartDemoUpstreams> {
  const file = join(appDir, 'demo/upstreams.ts');
  if (!existsSync(file)) return noUpstreams;
  return ((await import(pathToFileURL(file).href)) as { startDemoUpstreams: StartDemoUpstreams })
    .startDemoUpstreams;
}
