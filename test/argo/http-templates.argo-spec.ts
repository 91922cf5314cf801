// HTTP templates, row by row, through Argo's own agent (an agent pod per workflow) and through the shared agent
// (disableAgentPodCreation), on two real stacks side by side: each row must end with the same phase, message
// and result on both. One upstream serves both stacks, on the first stack's HOST_ADDR (its agent pods reach this
// machine there; the shared agents are processes of this machine), so URLs in messages are the same.
import { readFileSync } from 'node:fs';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { StackState } from '../../tools/argo-stack/src/stack.js';
import { reportText } from './support/report.js';
import {
  create,
  kubectl,
  prepareNamespace,
  repoRoot,
  stack,
  waitForWorkflow,
  type WorkflowOutcome,
} from './support/cluster.js';
import { agentPodRequestsOf, inRoom, nodeRoom } from './support/node-room.js';
import { sharedStack } from './support/shared-stack.js';

const NAMESPACE = 'ep-http';
const SECRET = 'http-creds';
const TOKEN = 'a-token-for-the-header';

interface Row {
  name: string;
  http: Record<string, unknown>;
  /** The phase both agents must give (a guard against agreeing on a wrong answer). */
  phase: 'Succeeded' | 'Failed' | 'Error';
}

function handler(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const status = /^\/status\/(\d{3})$/.exec(path);
    if (status) return void res.writeHead(Number(status[1])).end(`status ${status[1]}`);
    switch (path) {
      case '/json':
        res.writeHead(200, { 'Content-Type': 'application/json', 'X-Multi': ['a', 'b'] });
        return void res.end('{"ok":true}');
      case '/slow':
        return void setTimeout(() => res.writeHead(200).end('late'), 5000).unref();
      case '/echo':
        return void res.writeHead(200).end(Buffer.concat(chunks));
      case '/headers':
        return void res.writeHead(200).end(req.headers['x-token'] === TOKEN ? 'ok' : 'wrong token');
      default:
        res.writeHead(200).end('hello');
    }
  });
}

describe('HTTP templates: Argo agent and the shared agent give the same phase, message and result', () => {
  const pods = stack();
  const shared = sharedStack();
  const servers: Server[] = [];
  let base = '';
  let secure = '';

  beforeAll(async () => {
    const plain = createHttpServer(handler);
    const tls = createHttpsServer(
      {
        cert: readFileSync(join(pods.dir, 'pki/serving.crt')),
        key: readFileSync(join(pods.dir, 'pki/serving.key')),
      },
      handler,
    );
    for (const server of [plain, tls]) {
      await new Promise<void>((r) => server.listen(0, pods.hostAddr, r));
      servers.push(server);
    }
    base = `http://${pods.hostAddr}:${(plain.address() as AddressInfo).port}`;
    secure = `https://${pods.hostAddr}:${(tls.address() as AddressInfo).port}`;
    for (const state of [pods, shared]) {
      await prepareNamespace(state, NAMESPACE);
      kubectl(
        state,
        ['apply', '-n', NAMESPACE, '-f', '-'],
        JSON.stringify({
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: SECRET },
          stringData: { token: TOKEN },
        }),
      );
    }
    // Argo's agent pod runs as the workflow's service account: it needs the agent's rights, and the right to
    // read the Secrets its headers name.
    kubectl(pods, ['apply', '-n', NAMESPACE, '-k', join(repoRoot, 'manifests/install/workflow-namespace')]);
    applyRole(pods);
  });
  afterAll(() => {
    for (const server of servers) {
      server.closeAllConnections();
      server.close();
    }
  });

  it('for every row', async () => {
    const token = (key: string, name = SECRET) => ({ valueFrom: { secretKeyRef: { name, key } } });
    const rows: Row[] = [
      { name: 'ok', http: { url: `${base}/status/200` }, phase: 'Succeeded' },
      { name: 'not-2xx', http: { url: `${base}/status/404` }, phase: 'Failed' },
      { name: 'server-error', http: { url: `${base}/status/503` }, phase: 'Failed' },
      {
        name: 'condition-true',
        http: { url: `${base}/status/500`, successCondition: 'response.statusCode == 500' },
        phase: 'Succeeded',
      },
      {
        name: 'condition-false',
        http: { url: `${base}/status/200`, successCondition: 'response.statusCode == 201' },
        phase: 'Failed',
      },
      {
        name: 'condition-headers-body',
        http: {
          url: `${base}/json`,
          successCondition: 'response.headers["X-Multi"][1] == "b" && response.body contains "ok"',
        },
        phase: 'Succeeded',
      },
      {
        name: 'condition-compile-error',
        http: { url: `${base}/`, successCondition: 'nope == 1' },
        phase: 'Failed',
      },
      {
        name: 'condition-run-error',
        http: { url: `${base}/`, successCondition: 'response.headers["X-None"][0] == "a"' },
        phase: 'Failed',
      },
      {
        name: 'condition-not-bool',
        http: { url: `${base}/`, successCondition: 'response.statusCode' },
        phase: 'Failed',
      },
      {
        name: 'condition-request',
        http: {
          method: 'POST',
          url: `${base}/echo`,
          body: 'b',
          headers: [{ name: 'X-Plain', value: 'v' }],
          successCondition:
            'request.method == "POST" && request.body == "b" && request.headers["X-Plain"][0] == "v"',
        },
        phase: 'Succeeded',
      },
      { name: 'timeout', http: { url: `${base}/slow`, timeoutSeconds: 1 }, phase: 'Failed' },
      {
        name: 'secret-header',
        http: {
          url: `${base}/headers`,
          headers: [{ name: 'X-Token', ...token('token') }],
          successCondition: 'response.body == "ok"',
        },
        phase: 'Succeeded',
      },
      {
        name: 'missing-secret',
        http: { url: `${base}/headers`, headers: [{ name: 'X-Token', ...token('token', 'nope') }] },
        phase: 'Failed',
      },
      {
        name: 'missing-key',
        http: { url: `${base}/headers`, headers: [{ name: 'X-Token', ...token('other') }] },
        phase: 'Failed',
      },
      { name: 'body', http: { method: 'POST', url: `${base}/echo`, body: 'hello body' }, phase: 'Succeeded' },
      {
        name: 'body-from',
        http: {
          method: 'PUT',
          url: `${base}/echo`,
          bodyFrom: { bytes: Buffer.from('raw bytes').toString('base64') },
        },
        phase: 'Succeeded',
      },
      { name: 'refused', http: { url: `http://${pods.hostAddr}:1/` }, phase: 'Failed' },
      { name: 'tls-unknown-ca', http: { url: `${secure}/` }, phase: 'Failed' },
      { name: 'tls-skip-verify', http: { url: `${secure}/`, insecureSkipVerify: true }, phase: 'Succeeded' },
    ];
    const submit = (state: StackState, row: Row) =>
      create(state, NAMESPACE, {
        apiVersion: 'argoproj.io/v1alpha1',
        kind: 'Workflow',
        metadata: { generateName: `http-${row.name}-` },
        spec: { entrypoint: 'main', templates: [{ name: 'main', http: row.http }] },
      });
    // An HTTP step's agent pod holds Argo's container alone; on a real node no more at once than it fits.
    const room = await nodeRoom(pods);
    const requests = agentPodRequestsOf([]);
    const outcomes = await Promise.all(
      rows.map((row) =>
        Promise.all([
          inRoom(room, requests, async () =>
            waitForWorkflow(pods, NAMESPACE, await submit(pods, row), 10 * 60_000),
          ),
          submit(shared, row).then((name) => waitForWorkflow(shared, NAMESPACE, name, 10 * 60_000)),
        ]),
      ),
    );
    const node = (o: WorkflowOutcome) => {
      const n = Object.values(o.nodes).find((x) => x.type === 'HTTP');
      return {
        phase: n?.phase,
        message: n?.message,
        result: (n?.outputs as { result?: string } | undefined)?.result,
      };
    };
    const table = rows.map((row, i) => {
      const [argo, ours] = outcomes[i]!.map(node);
      return { row: row.name, argo, ours };
    });
    const unlike = table.filter((t) => JSON.stringify(t.ours) !== JSON.stringify(t.argo));
    reportText([
      ...unlike.map(
        (t) =>
          `${t.row}: ${t.ours.phase}${t.ours.message ? ` (${t.ours.message})` : ''} ≠ Argo: ${t.argo.phase} (${t.argo.message})`,
      ),
      `http-templates: ${table.length} HTTP templates under the shared agent and Argo's agent, ${unlike.length} ending otherwise`,
    ]);
    expect(table.map((t) => ({ row: t.row, ...t.ours }))).toEqual(
      table.map((t) => ({ row: t.row, ...t.argo })),
    );
    expect(table.map((t) => t.ours.phase)).toEqual(rows.map((r) => r.phase));
  });
});

/** Lets the workflows' `default` service account read the namespace's Secrets (for Argo's agent pod). */
function applyRole(state: StackState): void {
  kubectl(
    state,
    ['apply', '-n', NAMESPACE, '-f', '-'],
    [
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { name: 'http-secrets' },
        rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }],
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'http-secrets' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'http-secrets' },
        subjects: [{ kind: 'ServiceAccount', name: 'default', namespace: NAMESPACE }],
      },
    ]
      .map((o) => JSON.stringify(o))
      .join('\n'),
  );
}
