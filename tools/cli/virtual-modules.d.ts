// Generated at build time by tools/build.mjs (appDemos plugin).
declare module 'virtual:app-demos' {
  import type { StartDemoUpstreams } from '@app/local-agent';
  /** Every executor plugin: the import of its demo/upstreams.ts, or null when it calls no upstream. */
  export const appDemos: Record<string, (() => Promise<{ startDemoUpstreams: StartDemoUpstreams }>) | null>;
}
