import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runWorkflowSpec, type WorkflowResult } from '../src/agent/workflow-runner.js';
import type { WorkflowShape } from '../src/agent/workflow-types.js';

/**
 * The scenarios where the local agent used to decide differently from Argo v4.1.2's own agent code
 * (workflow/util/plugin Client.Call, workflow/executor/agent.go, the wfv1 JSON types), each with Argo's
 * outcome: one row per line of the comparison in issue 13, plus the behaviours that already matched.
 * A scripted plugin answers each row; the run is the real local agent over HTTP.
 */

type Handler = (req: IncomingMessage, res: ServerResponse, body: string, call: number) => void;

interface Row {
  scenario: string;
  plugin: Handler;
  phase: string;
  message?: string | RegExp;
  /** template.execute dispatches made for the node (requeues included). */
  calls?: number;
  hung?: boolean;
  outputs?: unknown;
  /** HTTP requests the plugin saw (retries and redirects included). */
  requests?: number;
}

const json =
  (text: string | ((call: number) => string), status = 200): Handler =>
  (_req, res, _body, call) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(typeof text === 'string' ? text : text(call));
  };

const EXECUTE = '/api/v1/template.execute';
const TIMEOUT_MS = 800;

const rows: Row[] = [
  // Go's encoding/json matches keys case-insensitively.
  {
    scenario: '{"Node":{"Phase":"Succeeded"}} (keys in another case)',
    plugin: json('{"Node":{"Phase":"Succeeded","Message":"cased"}}'),
    phase: 'Succeeded',
    message: 'cased',
  },
  {
    scenario: 'Running with "Requeue":"1s" is polled',
    plugin: json((call) =>
      call === 1 ? '{"node":{"phase":"Running"},"Requeue":"1s"}' : '{"node":{"phase":"Succeeded"}}',
    ),
    phase: 'Succeeded',
    calls: 2,
  },
  // Type errors fail the node with Go's message.
  {
    scenario: 'outputs.parameters: "x"',
    plugin: json('{"node":{"phase":"Succeeded","outputs":{"parameters":"x"}}}'),
    phase: 'Failed',
    message:
      'json: cannot unmarshal string into Go struct field Outputs.node.outputs.parameters of type []v1alpha1.Parameter',
  },
  {
    scenario: 'outputs.result: 5',
    plugin: json('{"node":{"phase":"Succeeded","outputs":{"result":5}}}'),
    phase: 'Failed',
    message: 'json: cannot unmarshal number into Go struct field Outputs.node.outputs.result of type string',
  },
  {
    scenario: 'a parameter name: 5',
    plugin: json('{"node":{"phase":"Succeeded","outputs":{"parameters":[{"name":5,"value":"v"}]}}}'),
    phase: 'Failed',
    message:
      'json: cannot unmarshal number into Go struct field Parameter.node.outputs.parameters.name of type string',
  },
  // AnyString.UnmarshalJSON: floats formatted with 'f'; null is no value.
  {
    scenario: 'a parameter value 1e21 and a null value',
    plugin: json(
      '{"node":{"phase":"Succeeded","outputs":{"parameters":[{"name":"big","value":1e21},{"name":"none","value":null}]}}}',
    ),
    phase: 'Succeeded',
    outputs: { parameters: [{ name: 'big', value: '1000000000000000000000' }, { name: 'none' }] },
  },
  // The decoder stops at the end of the first value.
  {
    scenario: 'a complete JSON value, body shorter than Content-Length',
    plugin: (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '500' });
      res.write('{"node":{"phase":"Succeeded"}}');
      setTimeout(() => res.socket?.destroy(), 20);
    },
    phase: 'Succeeded',
    requests: 1,
  },
  {
    scenario: 'a complete JSON value, then the connection stalls',
    plugin: (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"node":{"phase":"Succeeded"}} ');
    },
    phase: 'Succeeded',
    requests: 1,
  },
  {
    scenario: 'a UTF-8 BOM before the JSON',
    plugin: json('\uFEFF{"node":{"phase":"Succeeded"}}'),
    phase: 'Failed',
    message: "invalid character 'ï' looking for beginning of value",
  },
  {
    scenario: 'two node keys merge into one NodeResult',
    plugin: json('{"node":{"phase":"Succeeded","outputs":{"result":"r"}},"node":{"message":"second"}}'),
    phase: 'Succeeded',
    message: 'second',
    outputs: { result: 'r' },
  },
  // Go's http.Client follows redirects.
  {
    scenario: '307 to the same server re-sends the body',
    plugin: (req, res, body) => {
      if (req.url === EXECUTE) {
        res.writeHead(307, { Location: '/moved' });
        return void res.end();
      }
      json(
        `{"node":{"phase":"Succeeded","message":"${req.method} ${JSON.parse(body).template.name} ${req.headers.authorization ? 'with' : 'without'} token"}}`,
      )(req, res, body, 1);
    },
    phase: 'Succeeded',
    message: 'POST main with token',
    requests: 2,
  },
  {
    scenario: '303 becomes a GET without a body (here answered 404: not this plugin)',
    plugin: (req, res) => {
      if (req.url === EXECUTE) {
        res.writeHead(303, { Location: '/other' });
        return void res.end();
      }
      res.writeHead(req.method === 'GET' ? 404 : 500);
      res.end();
    },
    phase: 'Failed',
    message: 'no plugin executed the template',
  },
  {
    scenario: 'a redirect loop stops after 10 redirects',
    plugin: (_req, res) => {
      res.writeHead(307, { Location: EXECUTE });
      res.end();
    },
    phase: 'Failed',
    message: /^Post "\/api\/v1\/template\.execute": stopped after 10 redirects$/,
    requests: 10,
  },
  // taskWorker re-queues any requeue > 0.
  {
    scenario: 'Failed with requeue "1s" is called again (capped at 3, reported)',
    plugin: json('{"node":{"phase":"Failed","message":"nope"},"requeue":"1s"}'),
    phase: 'Failed',
    message: 'nope',
    calls: 4,
  },
  // The controller copies the whole outputs onto the node.
  {
    scenario: 'outputs.result, exitCode and artifacts are kept',
    plugin: json(
      '{"node":{"phase":"Succeeded","outputs":{"result":"done","exitCode":"0","artifacts":[{"name":"a","s3":{"key":"k"}}]}}}',
    ),
    phase: 'Succeeded',
    outputs: { result: 'done', exitCode: '0', artifacts: [{ name: 'a', s3: { key: 'k' } }] },
  },
  // Message texts.
  {
    scenario: "a status error carries the server's own status line",
    plugin: (_req, res) => {
      res.statusCode = 500;
      res.statusMessage = 'Kaboom';
      res.end('boom');
    },
    phase: 'Failed',
    message: '500 Kaboom: boom',
  },
  {
    scenario: 'a close without a reply is EOF, retried 5 times',
    plugin: (req) => req.socket.destroy(),
    phase: 'Failed',
    message: /^Post "http:\/\/127\.0\.0\.1:\d+\/api\/v1\/template\.execute": EOF$/,
    requests: 5,
  },
  // Already matching, kept so.
  {
    scenario: '403 is fatal',
    plugin: json('forbidden', 403),
    phase: 'Failed',
    message: '403 Forbidden: forbidden',
    requests: 1,
  },
  {
    scenario: '503 is retried 5 times, then the body is the message',
    plugin: json('busy', 503),
    phase: 'Failed',
    message: 'busy',
    requests: 5,
  },
  {
    scenario: 'a numeric requeue fails the node',
    plugin: json('{"node":{"phase":"Running"},"requeue":30}'),
    phase: 'Failed',
    message: 'json: cannot unmarshal number into Go struct field ExecuteTemplateReply.requeue of type string',
  },
  {
    scenario: 'Running without requeue hangs',
    plugin: json('{"node":{"phase":"Running"}}'),
    phase: 'Running',
    hung: true,
  },
  {
    scenario: '{"node":{}} hangs (nothing is reported to the controller)',
    plugin: json('{"node":{}}'),
    phase: 'Pending',
    hung: true,
  },
  {
    scenario: 'an unknown phase (Done) is recorded and hangs',
    plugin: json('{"node":{"phase":"Done"}}'),
    phase: 'Done',
    hung: true,
  },
  {
    scenario: 'a wrongly cased phase (succeeded) is recorded and hangs',
    plugin: json('{"node":{"phase":"succeeded"}}'),
    phase: 'succeeded',
    hung: true,
  },
];

const workflow: WorkflowShape = {
  metadata: { name: 'fidelity' },
  spec: { entrypoint: 'main', templates: [{ name: 'main', plugin: { probe: {} } }] },
};

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Server> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return server;
}

async function runAgainst(
  handler: Handler,
  rpc: { timeoutMs: number; backoffMs: number } = { timeoutMs: TIMEOUT_MS, backoffMs: 1 },
): Promise<{ result: WorkflowResult; requests: number }> {
  let requests = 0;
  let calls = 0;
  const server = await listen((req, res) => {
    requests++;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === EXECUTE) calls++;
      handler(req, res, Buffer.concat(chunks).toString('utf8'), calls);
    });
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const result = await runWorkflowSpec(workflow, {
      plugins: [{ name: 'probe', url, token: 'token' }],
      rpc,
      timeScale: 0.001,
    });
    return { result, requests };
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}

describe('the local agent decides every reply as Argo v4.1 does', () => {
  it.each(rows)('$scenario', async (row) => {
    const started = performance.now();
    const { result, requests } = await runAgainst(row.plugin);
    const node = result.node('fidelity')!;
    expect(node.phase).toBe(row.phase);
    if (typeof row.message === 'string') expect(node.message).toBe(row.message);
    if (row.message instanceof RegExp) expect(node.message).toMatch(row.message);
    if (row.calls !== undefined) expect(node.calls).toBe(row.calls);
    if (row.requests !== undefined) expect(requests).toBe(row.requests);
    expect(Boolean(node.hung)).toBe(Boolean(row.hung));
    if (row.outputs !== undefined) expect(node.outputs).toEqual(row.outputs);
    // Nothing here may wait for the client timeout: Argo decides every row without it.
    expect(performance.now() - started).toBeLessThan(TIMEOUT_MS);
  });

  it('a Failed reply with a requeue is reported as a warning', async () => {
    const { result } = await runAgainst(json('{"node":{"phase":"Failed"},"requeue":"1s"}'));
    expect(result.warnings).toEqual([
      expect.stringMatching(/a Failed reply carried requeue 1s: Argo's agent calls again/),
    ]);
  });

  it('a body cut inside the JSON value is io.ErrUnexpectedEOF: retried 5 times, then Failed', async () => {
    const { result, requests } = await runAgainst((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '100' });
      res.write('{"node":{"phase":"Succ');
      setTimeout(() => res.socket?.destroy(), 10);
    });
    expect(result.node('fidelity')).toMatchObject({ phase: 'Failed', message: 'unexpected EOF' });
    expect(requests).toBe(5);
  });

  it('a stall inside the JSON value times out while reading the body, 5 times', async () => {
    const { result, requests } = await runAgainst(
      (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write('{"node":{"phase":');
      },
      { timeoutMs: 100, backoffMs: 1 },
    );
    expect(result.node('fidelity')).toMatchObject({
      phase: 'Failed',
      message: 'context deadline exceeded (Client.Timeout or context cancellation while reading body)',
    });
    expect(requests).toBe(5);
  });

  it('no reply at all times out awaiting headers, worded as a url.Error', async () => {
    const { result } = await runAgainst(() => undefined, { timeoutMs: 100, backoffMs: 1 });
    expect(result.node('fidelity')?.message).toMatch(
      /^Post "http:\/\/127\.0\.0\.1:\d+\/api\/v1\/template\.execute": context deadline exceeded \(Client\.Timeout exceeded while awaiting headers\)$/,
    );
  });

  it('connection refused is worded as Go words it', async () => {
    const server = await listen(() => undefined);
    const port = (server.address() as AddressInfo).port;
    await new Promise((r) => server.close(r));
    const result = await runWorkflowSpec(workflow, {
      plugins: [{ name: 'probe', url: `http://127.0.0.1:${port}`, token: 'token' }],
      rpc: { backoffMs: 1 },
    });
    expect(result.node('fidelity')?.message).toBe(
      `Post "http://127.0.0.1:${port}/api/v1/template.execute": dial tcp 127.0.0.1:${port}: connect: connection refused`,
    );
  });
});
