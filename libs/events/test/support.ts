// Fixtures of the conformance cases (docs/events.md): namespace argo, WorkflowTemplates my-wft and
// meta-wft, ClusterWorkflowTemplate my-cwft, a caller with subject my-sub; sync mode unless a case says so.
import { request } from 'node:http';
import { startEventEndpoint, type EventEndpoint, type EventEndpointOptions } from '../src/index.js';
import type { TokensConfig } from '../src/auth/tokens-file.js';

export const TOKEN = 'my-token-0123456789';
export const TOKENS: TokensConfig = {
  tokens: [
    { token: TOKEN, subject: 'my-sub', permissions: ['*'] },
    {
      token: 'cannot-list-000',
      subject: 'system:serviceaccount:argo:nolist',
      permissions: ['create workflows'],
    },
    {
      token: 'cannot-create-00',
      subject: 'system:serviceaccount:argo:nocreate',
      permissions: ['list workfloweventbindings', 'get workflowtemplates'],
    },
  ],
  webhookClients: new Map(),
};

const template = (kind: string, name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'argoproj.io/v1alpha1',
  kind,
  metadata: { name, ...(kind === 'WorkflowTemplate' && { namespace: 'argo' }), ...extra },
  spec: {
    entrypoint: 'main',
    templates: [{ name: 'main', container: { image: 'busybox' } }],
  },
});

export const MY_WFT = template('WorkflowTemplate', 'my-wft');
export const MY_CWFT = template('ClusterWorkflowTemplate', 'my-cwft');
export const META_WFT = {
  ...template('WorkflowTemplate', 'meta-wft'),
  spec: {
    ...template('WorkflowTemplate', 'meta-wft').spec,
    workflowMetadata: {
      labels: { env: 'from-template', 'template-only': 'yes' },
      annotations: { note: 'from-template' },
    },
  },
};
export const FIXTURE_TEMPLATES = [MY_WFT, META_WFT, MY_CWFT];

export interface BindingSpec {
  selector: string;
  submit?: Record<string, unknown>;
  labels?: Record<string, string>;
  namespace?: string;
}

export function binding(name: string, spec: BindingSpec): Record<string, unknown> {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'WorkflowEventBinding',
    metadata: { name, namespace: spec.namespace ?? 'argo', ...(spec.labels && { labels: spec.labels }) },
    spec: { event: { selector: spec.selector }, ...(spec.submit && { submit: spec.submit }) },
  };
}

/** `submit` of my-wft with parameters from event expressions. */
export function submitWft(params: Record<string, string> = {}, extra: Record<string, unknown> = {}) {
  const parameters = Object.entries(params).map(([name, event]) => ({ name, valueFrom: { event } }));
  return {
    workflowTemplateRef: { name: 'my-wft' },
    ...(parameters.length > 0 && { arguments: { parameters } }),
    ...extra,
  };
}

/** An endpoint with the fixtures plus `objects`; sync mode unless given. Logs are kept, not printed. */
export async function endpoint(
  objects: Array<Record<string, unknown>>,
  options: Partial<EventEndpointOptions> = {},
): Promise<EventEndpoint & { logs: Array<Record<string, unknown>> }> {
  const logs: Array<Record<string, unknown>> = [];
  const ep = await startEventEndpoint({
    objects: [...FIXTURE_TEMPLATES, ...objects],
    tokens: TOKENS,
    asyncDispatch: false,
    log: (entry) => logs.push(entry),
    ...options,
  });
  open.push(ep);
  return Object.assign(ep, { logs });
}

const open: EventEndpoint[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((ep) => ep.close()));
});

export interface RawReply {
  status: number;
  text: string;
  headers: Record<string, string | string[] | undefined>;
  json(): unknown;
}

export interface SendOptions {
  method?: string;
  /** A string or Buffer is sent as is; anything else as JSON; undefined = no body. */
  body?: unknown;
  /** Header values as lists send the header once per value. */
  headers?: Record<string, string | string[]>;
  /** Default: `Bearer my-token-...`; null = no Authorization header. */
  token?: string | null;
}

/** A raw HTTP/1.1 request (duplicate headers and unencoded paths are sent exactly as given). */
export function send(url: string, path: string, options: SendOptions = {}): Promise<RawReply> {
  const body =
    options.body === undefined
      ? undefined
      : typeof options.body === 'string' || Buffer.isBuffer(options.body)
        ? Buffer.from(options.body)
        : Buffer.from(JSON.stringify(options.body));
  const headers: Record<string, string | string[]> = { ...options.headers };
  const token = options.token === undefined ? TOKEN : options.token;
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  if (body) headers['Content-Length'] = String(body.length);
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method: options.method ?? 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, text, headers: res.headers, json: () => JSON.parse(text) });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

export const RAND5 = '[a-z0-9]{5}';
