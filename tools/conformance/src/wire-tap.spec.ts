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
});
