// The plugin module is imported up front (Jest's ESM loader fails the kit's concurrent lazy imports).
import '../src/event-emitter.module.js';
import { executeArgs, startHarness, type ExecuteArgsOptions, type PluginHarness } from '@app/local-agent';
import { startEventEndpoint, type EventEndpoint, type EventEndpointOptions } from '@app/events';
import { DEMO_ARGO_TOKEN, DEMO_SUBJECT } from '../demo/upstreams.js';
import { eventEmitterPlugin } from '../src/event-emitter.plugin.js';

export const TOKENS = {
  tokens: [
    { token: DEMO_ARGO_TOKEN, subject: DEMO_SUBJECT, permissions: ['*'] },
    {
      token: 'token-without-list-0000',
      subject: 'system:serviceaccount:argo:nolist',
      permissions: ['create workflows'],
    },
  ],
  webhookClients: new Map(),
};

const TEMPLATE = {
  apiVersion: 'argoproj.io/v1alpha1',
  kind: 'WorkflowTemplate',
  metadata: { name: 'record', namespace: 'argo' },
  spec: { entrypoint: 'main', templates: [{ name: 'main', container: { image: 'busybox' } }] },
};

function binding(name: string, selector: string, submit: Record<string, unknown>, namespace = 'argo') {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'WorkflowEventBinding',
    metadata: { name, namespace },
    spec: { event: { selector }, submit },
  };
}

/**
 * `record` submits a workflow named after x-argo-plugin-key with the payload, the headers and the
 * discriminator as parameters; `fail` has a broken parameter (a 500 in sync mode).
 */
export const BINDINGS = [
  TEMPLATE,
  { ...TEMPLATE, metadata: { name: 'record', namespace: 'ci' } },
  ...['argo', 'ci'].map((ns) =>
    binding(
      'record',
      'metadata["x-kind"] == ["record"]',
      {
        workflowTemplateRef: { name: 'record' },
        metadata: { name: '"rec-" + sprig.trunc(16, metadata["x-argo-plugin-key"][0])' },
        arguments: {
          parameters: [
            { name: 'payload', valueFrom: { event: 'payload' } },
            { name: 'list', valueFrom: { event: 'metadata["x-list"]' } },
            { name: 'discriminator', valueFrom: { event: 'discriminator' } },
            { name: 'key', valueFrom: { event: 'metadata["x-argo-plugin-key"][0]' } },
          ],
        },
      },
      ns,
    ),
  ),
  binding('fail', 'metadata["x-kind"] == ["fail"]', {
    workflowTemplateRef: { name: 'record' },
    arguments: { parameters: [{ name: 'p', valueFrom: { event: 'rubbish!!!' } }] },
  }),
];

export interface EmitterFixture {
  endpoint: EventEndpoint;
  h: PluginHarness;
  env: Record<string, string>;
  /** A new sidecar with the same env and agent token: a restart (the ledger is gone). */
  restart(): Promise<PluginHarness>;
  close(): Promise<void>;
}

/** The local event endpoint (sync mode unless given) and the plugin in the kit harness, pointed at it. */
export async function startEmitterFixture(
  endpointOptions: Partial<EventEndpointOptions> = {},
  env: Record<string, string> = {},
): Promise<EmitterFixture> {
  const endpoint = await startEventEndpoint({
    objects: BINDINGS,
    tokens: TOKENS,
    asyncDispatch: false,
    log: () => undefined,
    ...endpointOptions,
  });
  const fullEnv = {
    ARGO_SERVER: `127.0.0.1:${endpoint.port}`,
    ARGO_TOKEN: `Bearer ${DEMO_ARGO_TOKEN}`,
    ARGO_SECURE: 'false',
    ARGO_EVENT_NAMESPACES: 'argo,ci',
    ...env,
  };
  const fixture: EmitterFixture = {
    endpoint,
    env: fullEnv,
    h: await startHarness(eventEmitterPlugin, { env: fullEnv }),
    async restart() {
      const token = fixture.h.token;
      await fixture.h.close();
      fixture.h = await startHarness(eventEmitterPlugin, { env: fullEnv, token });
      return fixture.h;
    },
    async close() {
      await fixture.h.close();
      await endpoint.close();
    },
  };
  return fixture;
}

/** A template.execute request for the `workflow-event` plugin. */
export function emit(body: Record<string, unknown>, options: ExecuteArgsOptions = {}) {
  return executeArgs({ 'workflow-event': body }, options);
}

export function outputs(reply: {
  node?: { outputs?: { parameters?: Array<{ name: string; value: string }> } };
}): Record<string, string> {
  return Object.fromEntries((reply.node?.outputs?.parameters ?? []).map((p) => [p.name, p.value]));
}

export const RECORD = { 'x-kind': 'record' };
