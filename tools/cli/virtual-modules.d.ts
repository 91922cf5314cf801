// Generated at build time by tools/build.mjs (appDemos plugin).
declare module 'virtual:app-demos' {
  import type { StartDemoUpstreams } from '@app/local-agent';
  export const appDemos: Record<string, () => Promise<{ startDemoUpstreams: StartDemoUpstreams }>>;
}
