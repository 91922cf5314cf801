import { StandInServer } from './stand-in-server.js';

describe('StandInServer counter', () => {
  it('counts calls by method, path prefix and, with status=, by the status they were answered with', async () => {
    const seen = new Set<string>();
    const server = new StandInServer('demo').route('POST', '/messages', (req) => {
      const key = String(req.headers['idempotency-key']);
      if (seen.has(key)) return { status: 200, body: { id: key } };
      seen.add(key);
      return { status: 201, body: { id: key } };
    });
    const url = await server.start();
    try {
      for (const key of ['a', 'a', 'b'])
        await fetch(`${url}/messages`, { method: 'POST', headers: { 'Idempotency-Key': key }, body: '{}' });
      const count = async (query: string) =>
        ((await (await fetch(`${url}/__stand-in/count?${query}`)).json()) as { count: number }).count;
      expect(await count('method=POST&path=/messages')).toBe(3);
      expect(await count('method=POST&path=/messages&status=201')).toBe(2);
      expect(await count('method=GET')).toBe(0);
    } finally {
      await server.close();
    }
  });
});
