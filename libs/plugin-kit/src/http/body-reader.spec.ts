import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { bodyBudgetFor } from './body-budget.js';
import { readBody } from './body-reader.js';

describe('readBody', () => {
  it('keeps a character split between two chunks whole: the bytes are decoded once, at the end', async () => {
    const body = Buffer.from(JSON.stringify({ text: 'déployé ✅' }));
    const cut = body.indexOf(Buffer.from('é')) + 1;
    const req = Object.assign(new PassThrough(), { headers: {} }) as unknown as IncomingMessage;
    const limits = { maxBytes: 1000, maxValues: 100, maxDepth: 8 };
    const reading = readBody(req, limits, bodyBudgetFor(limits).open());
    (req as unknown as PassThrough).write(body.subarray(0, cut));
    await new Promise((r) => setTimeout(r, 10));
    (req as unknown as PassThrough).end(body.subarray(cut));
    expect(JSON.parse((await reading).toString('utf8'))).toEqual({ text: 'déployé ✅' });
  });
});
