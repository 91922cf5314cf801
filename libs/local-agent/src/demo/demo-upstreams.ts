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

/** What `apps/<app>/demo/upstreams.ts` exports as `startDemoUpstreams`. */
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

export type StartDemoUpstreams = (context: DemoContext) => Promise<DemoUpstreams>;
