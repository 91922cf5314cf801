import type { DemoContext, DemoUpstreams } from '@app/local-agent';
import { startDemoUpstreams as slack } from '../../chat-notifier/demo/upstreams.js';
import { startDemoUpstreams as build } from '../../build-trigger/demo/upstreams.js';
import { startDemoUpstreams as dataJob } from '../../data-job-runner/demo/upstreams.js';
import { startArgoDemoServer } from '../../event-emitter/demo/upstreams.js';

const HOSTED_HERE = 'notify,build,data-job,workflow-event';

/**
 * The stand-ins of every hosted plugin at once, for the suites that run the collection like any plugin. The
 * event endpoint accepts events without running the workflows its bindings submit (`npm run demo` runs those
 * in its collection pass, with each app's own stand-ins).
 */
export async function startDemoUpstreams(context: DemoContext): Promise<DemoUpstreams> {
  const all: DemoUpstreams[] = [];
  for (const start of [slack, build, dataJob, () => startArgoDemoServer()]) all.push(await start(context));
  return {
    // The plugins these stand-ins serve: a plugin added later (npm run new-plugin) is left out, not failed.
    env: { ...(Object.assign({}, ...all.map((u) => u.env)) as Record<string, string>), PLUGINS: HOSTED_HERE },
    settle: async () => (await Promise.all(all.map((u) => u.settle?.() ?? []))).flat(),
    close: async () => {
      await Promise.all(all.map((u) => u.close()));
    },
  };
}
