import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PluginRpcClient } from '@app/argo-agent/plugin-rpc-client.js';
import { WireTap } from './wire-tap.js';

/** A plugin that sends a complete reply, then holds the connection open before ending the body. */
async function slowEnder(holdMs: number): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"node":{"phase":"Succeeded"}}');
      setTimeout(() => res.end(), holdMs).unref();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return server;
}

describe('WireTap', () => {
  it("records the reply whole when the agent's client hangs up after the first JSON value", async () => {
    const server = await slowEnder(2000);
    const tap = new WireTap(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
    await tap.start();
    try {
      const client = new PluginRpcClient({ name: 'p', url: tap.url, token: 't' });
      const body = '{"template":{}}';
      tap.tag(body, 'own', 'held open');
      const reply = await client.executeTemplate(body);
      expect(reply?.node?.phase).toBe('Succeeded');
      await new Promise((r) => setTimeout(r, 50)); // the tap sees the hang-up
      const [exchange, ...more] = tap.forBody(body);
      expect(more).toEqual([]);
      expect(exchange).toMatchObject({ status: 200, text: '{"node":{"phase":"Succeeded"}}' });
      expect(exchange!.error).toBeUndefined();
    } finally {
      await tap.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('keeps the first MiB of a larger reply without a U+FFFD where the bound cut a character', async () => {
    const head = '{"node":{"phase":"Succeeded","message":"';
    // The prefix's length decides where the bound falls: padded so it falls after an 'é''s first byte.
    const pad = (1024 * 1024 - head.length) % 2 === 0 ? 'x' : '';
    const reply = `${head}${pad}${'é'.repeat(600_000)}"}}`;
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.end(reply));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const tap = new WireTap(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
    await tap.start();
    try {
      tap.tag('{}', 'own', 'large');
      expect(await (await fetch(tap.url, { method: 'POST', body: '{}' })).text()).toBe(reply);
      const [exchange] = tap.forBody('{}');
      const kept = head.length + pad.length + (1024 * 1024 - head.length - pad.length - 1) / 2;
      expect(exchange).toMatchObject({ status: 200, bytes: Buffer.byteLength(reply) });
      expect(exchange!.text).toBe(reply.slice(0, kept));
    } finally {
      await tap.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
