import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Authenticator } from './authenticator.js';
import { sameSecret } from './same-secret.js';
import type { ResolvedOptions } from '../options.js';

describe('token comparison', () => {
  it('compares fixed-length SHA-256 digests with timingSafeEqual', () => {
    const source = readFileSync(join(import.meta.dirname, 'same-secret.ts'), 'utf8');
    expect(source).toMatch(/createHash\('sha256'\)/);
    expect(source).toMatch(/timingSafeEqual\(digest\(presented\), digest\(known\)\)/);
  });

  it('the authenticator compares the presented token with every known one that way, and nothing else', () => {
    const source = readFileSync(join(import.meta.dirname, 'authenticator.ts'), 'utf8');
    const lookup = /private tokenEntry\([\s\S]*?\n {2}\}/.exec(source)?.[0] ?? '';
    expect(lookup).toMatch(
      /for \(const entry of this\.options\.tokens\.tokens\) if \(sameSecret\(presented, entry\.token\)\)/,
    );
    expect(source).not.toMatch(/\.token\s*(===|!==|==)|(===|!==|==)\s*\w+\.token\b/);
  });

  it('finds the right entry, and none for near misses', () => {
    const tokens = [
      { token: 'alpha-token', subject: 'a', permissions: ['*'] },
      { token: 'beta-token', subject: 'b', permissions: ['*'] },
    ];
    const auth = new Authenticator({
      tokens: { tokens, webhookClients: new Map() },
    } as unknown as ResolvedOptions);
    const who = (header: string) => {
      try {
        return auth.authenticate({ authorization: header, headers: {} }).subject;
      } catch {
        return 'refused';
      }
    };
    expect(who('Bearer beta-token')).toBe('b');
    for (const wrong of [
      'Bearer beta-toke',
      'Bearer beta-tokenn',
      'Bearer BETA-TOKEN',
      'Bearer ',
      'beta-token',
    ])
      expect(who(wrong)).toBe('refused');
    expect(sameSecret('x', 'x')).toBe(true);
    expect(sameSecret('x', 'y')).toBe(false);
  });
});
