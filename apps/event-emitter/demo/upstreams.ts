// The demo's Argo Server: the local event endpoint (libs/events) with the bindings and templates of
// manifests/event-emitter/examples, in async mode, running the workflows it submits through the local agent
// with the plugins of the demo.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { DemoBackgroundRun, DemoContext, DemoUpstreams, WorkflowResult } from '@app/local-agent';
import { renderResult, standInHost } from '@app/local-agent';
import {
  startEventEndpoint,
  type EventEndpoint,
  type EventEndpointOptions,
  type WorkflowObject,
} from '@app/events';

/** The demo's Argo token (a stand-in value for a ServiceAccount token). */
export const DEMO_ARGO_TOKEN = 'argo-demo-token-9f8e7d6c5b4a39281706f5e4d3c2b1a0';
export const DEMO_SUBJECT = 'system:serviceaccount:argo:workflow-event-demo';

/** manifests/event-emitter/examples, found upwards from here (this file is also bundled into dist/tools). */
export const EXAMPLES_DIR = findUp(import.meta.dirname, 'manifests/event-emitter/examples');

function findUp(from: string, relative: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, relative))) return join(dir, relative);
    if (dirname(dir) === dir) throw new Error(`${relative} not found above ${from}`);
  }
}

export interface EventEmitterDemo {
  endpoint: EventEndpoint;
  /** Sidecar env pointing the plugin at the endpoint. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** Starts the local event endpoint with the examples' bindings and templates (async mode unless overridden). */
export async function startArgoDemoServer(
  options: Partial<EventEndpointOptions> = {},
): Promise<EventEmitterDemo> {
  // Where the other stand-ins listen (the real-Argo suites' pods reach this machine at the stack's HOST_ADDR).
  const host = standInHost();
  const endpoint = await startEventEndpoint({
    host,
    bindingsDir: EXAMPLES_DIR,
    tokens: {
      tokens: [{ token: DEMO_ARGO_TOKEN, subject: DEMO_SUBJECT, permissions: ['*'] }],
      webhookClients: new Map(),
    },
    asyncDispatch: true,
    log: () => undefined,
    ...options,
  });
  return {
    endpoint,
    env: {
      ARGO_SERVER: `${host}:${endpoint.port}`,
      ARGO_TOKEN: `Bearer ${DEMO_ARGO_TOKEN}`,
      ARGO_SECURE: 'false',
    },
    close: () => endpoint.close(),
  };
}

function consumedTree(result: WorkflowResult, binding: string): string {
  const mark = result.phase === 'Succeeded' ? '✔' : '✖';
  return `\n${mark}━━ submitted by binding ${binding} through the local event endpoint ━━\n${renderResult(result)}\n`;
}

/** Used by `npm run demo`: consumed workflows run with the demo's plugins (filled in after start-up). */
export async function startDemoUpstreams(context: DemoContext): Promise<DemoUpstreams> {
  const runs: DemoBackgroundRun[] = [];
  const demo = await startArgoDemoServer({
    run: {
      plugins: () => context.plugins,
      timeScale: context.timeScale,
      onResult: (result: WorkflowResult, workflow: WorkflowObject) => {
        const binding = workflow.metadata.labels['workflows.argoproj.io/workflow-event-binding'];
        context.print?.(consumedTree(result, binding));
        runs.push({ name: result.name, phase: result.phase, origin: `binding ${binding}` });
      },
    },
  });
  return {
    env: demo.env,
    settle: async () => {
      await demo.endpoint.idle();
      return runs;
    },
    close: demo.close,
  };
}
