import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';

/**
 * The reply scenarios of the local agent's fidelity suite: a scripted plugin's behaviour per scenario and
 * Argo v4.1's outcome for it (workflow/util/plugin Client.Call, workflow/executor/agent.go, the wfv1 JSON
 * types). Played against the local agent by argo-agent-fidelity.e2e-spec.ts, and by a sidecar under the real
 * agent of the Argo stack by test/argo (which compares the two agents).
 */

export type Handler = (req: IncomingMessage, res: ServerResponse, body: string, call: number) => void;

export interface Row {
  scenario: string;
  plugin: Handler;
  phase: string;
  message?: string | RegExp;
  /** template.execute dispatches made for the node (requeues included). */
  calls?: number;
  hung?: boolean;
  /** The workflow's phase when it is not the node's (a node that hangs leaves its workflow Running). */
  workflowPhase?: string;
  outputs?: unknown;
  /** HTTP requests the plugin saw (retries and redirects included). */
  requests?: number;
}

export const json =
  (text: string | ((call: number) => string), status = 200): Handler =>
  (_req, res, _body, call) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(typeof text === 'string' ? text : text(call));
  };

export const EXECUTE = '/api/v1/template.execute';
export const rows: Row[] = [
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
  // Compared with the real agent of the Argo stack (test/argo), beyond the rows above.
  {
    scenario: 'an Error reply',
    plugin: json('{"node":{"phase":"Error","message":"broken"}}'),
    phase: 'Error',
    message: 'broken',
  },
  {
    scenario: '{"node":null} is no node',
    plugin: json('{"node":null}'),
    phase: 'Failed',
    message: 'no plugin executed the template',
  },
  {
    scenario: 'a lone surrogate escape in a string becomes U+FFFD',
    plugin: json('{"node":{"phase":"Failed","message":"x\\ud800y"}}'),
    phase: 'Failed',
    message: 'x\uFFFDy',
  },
  {
    scenario: 'a raw control character inside a string',
    plugin: json('{"node":{"phase":"Failed","message":"a\nb"}}'),
    phase: 'Failed',
    message: "invalid character '\\n' in string literal",
  },
  {
    scenario: 'a complete JSON value, then garbage',
    plugin: json('{"node":{"phase":"Succeeded"}}garbage'),
    phase: 'Succeeded',
  },
  {
    scenario: 'an empty 200 body is EOF, not retried',
    plugin: json(''),
    phase: 'Failed',
    message: 'EOF',
    requests: 1,
  },
  {
    scenario: '204 No Content fails the node',
    plugin: json('', 204),
    phase: 'Failed',
    message: '204 No Content: ',
  },
  {
    scenario: 'Pending with a requeue is polled',
    plugin: json((call) =>
      call === 1
        ? '{"node":{"phase":"Pending"},"requeue":"1s"}'
        : '{"node":{"phase":"Succeeded","message":"ok"}}',
    ),
    phase: 'Succeeded',
    message: 'ok',
    calls: 2,
  },
  {
    scenario: 'a gzip-compressed reply is decompressed',
    plugin: (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
      res.end(gzipSync('{"node":{"phase":"Succeeded","message":"zipped"}}'));
    },
    phase: 'Succeeded',
    message: 'zipped',
  },
  {
    scenario: 'a negative requeue on Running hangs',
    plugin: json('{"node":{"phase":"Running"},"requeue":"-1s"}'),
    phase: 'Running',
    hung: true,
  },
  // Go's decoder replaces each byte of invalid UTF-8 in a string with U+FFFD.
  {
    scenario: 'invalid UTF-8 in a string: one U+FFFD per invalid byte',
    plugin: (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        Buffer.concat([
          Buffer.from('{"node":{"phase":"Failed","message":"a'),
          Buffer.from([0xe2, 0x82, 0x62, 0xff, 0x63, 0xed, 0xa0, 0x80]),
          Buffer.from('"}}'),
        ]),
      );
    },
    phase: 'Failed',
    message: 'a\uFFFD\uFFFDb\uFFFDc\uFFFD\uFFFD\uFFFD',
  },
  {
    scenario: 'invalid UTF-8 in the body of a status error',
    plugin: (_req, res) => {
      res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end(Buffer.from([0x6f, 0x68, 0xe2, 0x82, 0x21]));
    },
    phase: 'Failed',
    message: '500 Internal Server Error: oh\uFFFD\uFFFD!',
  },
  // A node that is skipped or omitted is completed without failing: the workflow succeeds.
  {
    scenario: 'a Skipped reply: the workflow Succeeded',
    plugin: json('{"node":{"phase":"Skipped","message":"not today"}}'),
    phase: 'Skipped',
    message: 'not today',
    workflowPhase: 'Succeeded',
  },
  {
    scenario: 'an Omitted reply: the workflow Succeeded',
    plugin: json('{"node":{"phase":"Omitted","message":"left out"}}'),
    phase: 'Omitted',
    message: 'left out',
    workflowPhase: 'Succeeded',
  },
  // The agent patches each result into the task set's status with a JSON merge patch.
  {
    scenario: 'Running with a message and outputs, then Succeeded without them: the results merge',
    plugin: json((call) =>
      call === 1
        ? '{"node":{"phase":"Running","message":"started","outputs":{"parameters":[{"name":"p","value":"1"}],"result":"r1"}},"requeue":"3s"}'
        : '{"node":{"phase":"Succeeded","outputs":{"parameters":[{"name":"q","value":"2"}]}}}',
    ),
    phase: 'Succeeded',
    message: 'started',
    outputs: { parameters: [{ name: 'q', value: '2' }], result: 'r1' },
    calls: 2,
  },
];

/** Replies Argo decides only after its client timeout or retries, played with shorter timings locally. */
export const slowScenarios = {
  cutInsideValue: {
    scenario: 'a body cut inside the JSON value (unexpected EOF, retried)',
    plugin: ((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '100' });
      res.write('{"node":{"phase":"Succ');
      setTimeout(() => res.socket?.destroy(), 10);
    }) as Handler,
  },
  stallInsideValue: {
    scenario: 'a stall inside the JSON value (times out while reading the body, retried)',
    plugin: ((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"node":{"phase":');
    }) as Handler,
  },
  noReply: {
    scenario: 'no reply at all (times out awaiting headers, retried)',
    plugin: (() => undefined) as Handler,
  },
  delayedReply: {
    scenario: 'a reply after 5 s (within the 30 s timeout)',
    plugin: ((_req, res) => {
      setTimeout(() => json('{"node":{"phase":"Succeeded","message":"late"}}')(_req, res, '', 1), 5000);
    }) as Handler,
  },
} satisfies Record<string, { scenario: string; plugin: Handler }>;

/** Every scripted behaviour, by scenario text. */
export const replyScripts: ReadonlyArray<{ scenario: string; plugin: Handler }> = [
  ...rows,
  ...Object.values(slowScenarios),
];
