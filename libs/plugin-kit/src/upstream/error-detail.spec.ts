import { Redactor } from '../logging/redactor.js';
import { clipMasked, errorDetail } from './error-detail.js';
import { runInUpstreamScope } from './upstream-scope.js';

/** What the issue reproduced: Jenkins' Basic pair, and the event emitter's ARGO_TOKEN. */
const BASIC = `Basic ${Buffer.from('argo-bot:11d7f3c0a9b8e6d5c4b3a2f1e0d9c8b7a6').toString('base64')}`;
const ARGO_TOKEN = 'Bearer eyJhbGciOiJSUzI1NiJ9.argo-server-token.Zm9vYmFy';
const redactor = new Redactor()
  .addLogin('argo-bot', '11d7f3c0a9b8e6d5c4b3a2f1e0d9c8b7a6')
  .add(ARGO_TOKEN, ARGO_TOKEN.slice('Bearer '.length));
const masked = <T>(fn: () => T): T =>
  runInUpstreamScope({ maxBodyBytes: 1 << 26, maxValues: 100_000, redactor }, fn);

/** Any 6 characters in a row of the credential past its scheme word: what a cut would leave of it. */
function fragmentIn(text: string, credential: string): string | undefined {
  const secret = credential.replace(/^(Basic|Bearer) /, '');
  for (let i = 0; i + 6 <= secret.length; i++) {
    const piece = secret.slice(i, i + 6);
    if (text.includes(piece)) return piece;
  }
  return undefined;
}

const SCAN = 64 * 1024;
/** Every way an error body reaches errorDetail: text, an HTML page, a JSON field, raw bytes. */
const FORMS: Array<[string, (text: string) => unknown]> = [
  ['text', (t) => t],
  ['HTML', (t) => `<html><head><title>${t}</title></head></html>`],
  ['JSON message', (t) => ({ message: t })],
  ['bytes', (t) => Buffer.from(t)],
];

/** Offsets that put the credential just before, across and just after `edge`. */
const around = (edge: number, credential: string): number[] =>
  Array.from({ length: credential.length + 4 }, (_, i) => edge - credential.length - 2 + i);

describe('errorDetail masks the whole text before it cuts', () => {
  describe.each([
    ['Jenkins Basic', BASIC],
    ['ARGO_TOKEN', ARGO_TOKEN],
  ])('%s', (_name, credential) => {
    it.each(FORMS)(
      '%s: at every offset around the 64 KiB scan window, behind whitespace that collapsing would remove',
      (_form, make) => {
        for (const fill of [' ', '\n', '\t ']) {
          const prefix = (offset: number) => fill.repeat(Math.ceil(offset / fill.length)).slice(0, offset);
          for (const offset of around(SCAN, credential)) {
            const text = `${prefix(offset)}${credential} rejected`;
            const detail = masked(() => errorDetail(make(text))) ?? '';
            expect({ offset, fill, fragment: fragmentIn(detail, credential) }).toEqual({
              offset,
              fill,
              fragment: undefined,
            });
          }
        }
      },
    );

    it.each([160, 200, 1000])('at every offset around a %i-character cut', (cut) => {
      for (const [, make] of FORMS)
        for (const offset of around(cut, credential)) {
          const detail = masked(() => errorDetail(make(`${'.'.repeat(offset)}${credential} x`), cut)) ?? '';
          expect(detail.length).toBeLessThanOrEqual(cut);
          expect({ offset, fragment: fragmentIn(detail, credential) }).toEqual({
            offset,
            fragment: undefined,
          });
        }
    });
  });

  it('masks a credential that only appears once HTML entities are decoded', () => {
    const r = new Redactor().add('pa&ss<word>42');
    const detail = runInUpstreamScope({ maxBodyBytes: 1 << 20, maxValues: 100_000, redactor: r }, () =>
      errorDetail('<html><title>login pa&amp;ss&lt;word&gt;42 refused</title></html>'),
    );
    expect(detail).toBe('login [REDACTED] refused');
  });

  it('keeps the masked text readable: whitespace collapsed, a long detail cut with an ellipsis', () => {
    expect(masked(() => errorDetail(`${' \n'.repeat(500)}${ARGO_TOKEN}\n\nrejected`))).toBe(
      '[REDACTED] rejected',
    );
    expect(masked(() => errorDetail({ message: 'x'.repeat(300) }))).toBe(`${'x'.repeat(199)}…`);
  });
});

describe('clipMasked', () => {
  it('cuts after masking: at no offset does a piece of the credential remain', () => {
    for (const offset of around(100, BASIC)) {
      const clipped = masked(() => clipMasked(`${'.'.repeat(offset)}${BASIC} tail`, 100));
      expect(clipped.length).toBeLessThanOrEqual(100);
      expect({ offset, fragment: fragmentIn(clipped, BASIC) }).toEqual({ offset, fragment: undefined });
    }
  });

  it('never cuts a character outside the BMP in half', () => {
    for (const offset of [0, 1]) {
      const clipped = clipMasked(`${'.'.repeat(offset)}${'😀'.repeat(100)}`, 100);
      expect(clipped).toBe(`${'.'.repeat(offset)}${'😀'.repeat(49)}…`);
    }
  });
});
