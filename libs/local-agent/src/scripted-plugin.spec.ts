import { request } from 'node:http';
import { ScriptedPlugin } from './scripted-plugin.js';

describe('ScriptedPlugin', () => {
  it('records a body whose multi-byte characters arrive split between two reads', async () => {
    const plugin = await new ScriptedPlugin('t', [{ body: '{}' }]).start();
    const body = Buffer.from(JSON.stringify({ note: 'é 😀' }));
    const cut = body.indexOf(Buffer.from('é')) + 1; // between the two bytes of é
    await new Promise<void>((resolve, reject) => {
      const req = request(
        `${plugin.url}/api/v1/template.execute`,
        { method: 'POST', headers: { Authorization: 'Bearer t', 'Content-Length': body.length } },
        (res) => res.resume().on('end', resolve),
      );
      req.on('error', reject);
      req.write(body.subarray(0, cut));
      setTimeout(() => req.end(body.subarray(cut)), 50);
    });
    expect(JSON.parse(plugin.requests[0]!.body)).toEqual({ note: 'é 😀' });
    await plugin.close();
  });
});
