import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runWorkflowSpec, type WorkflowResult } from '../src/agent/workflow-runner.js';
import type { WorkflowShape } from '../src/agent/workflow-types.js';
import { EXECUTE, json, rows, slowScenarios, type Handler } from './reply-scenarios.js';

/**
 * The scenarios where the local agent used to decide differently from Argo v4.1.2's own agent code
 * (workflow/util/plugin Client.Call, workflow/executor/agent.go, the wfv1 JSON types), each with Argo's
 * outcome: one row per line of the comparison in issue 13, plus the behaviours that already matched.
 * A scripted plugin answers each row (reply-scenarios.ts); the run is the real local agent over HTTP.
 */

const TIMEOUT_MS = 800;

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
    // A node that hangs keeps what the plugin said, and its workflow runs on (as the real agent shows).
    if (row.message === undefined) expect(node.message).toBeUndefined();
    expect(result.phase).toBe(row.workflowPhase ?? (row.hung ? 'Running' : row.phase));
    if (result.phase === 'Succeeded') expect(result.message).toBeUndefined();
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
    const { result, requests } = await runAgainst(slowScenarios.cutInsideValue.plugin);
    expect(result.node('fidelity')).toMatchObject({ phase: 'Failed', message: 'unexpected EOF' });
    expect(requests).toBe(5);
  });

  it('a stall inside the JSON value times out while reading the body, 5 times', async () => {
    const { result, requests } = await runAgainst(slowScenarios.stallInsideValue.plugin, {
      timeoutMs: 100,
      backoffMs: 1,
    });
    expect(result.node('fidelity')).toMatchObject({
      phase: 'Failed',
      message: 'context deadline exceeded (Client.Timeout or context cancellation while reading body)',
    });
    expect(requests).toBe(5);
  });

  it('no reply at all times out awaiting headers, worded as a url.Error', async () => {
    const { result } = await runAgainst(slowScenarios.noReply.plugin, { timeoutMs: 100, backoffMs: 1 });
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
