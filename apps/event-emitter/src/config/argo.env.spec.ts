import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EnvValidationError, loadEnv } from '@app/plugin-kit';
import { ArgoEnv } from './argo.env.js';

const base = { ARGO_SERVER: 'argo-server.argo:2746', ARGO_TOKEN: 'Bearer abc.def-123' };
const problems = (env: Record<string, string>): string[] => {
  try {
    loadEnv(ArgoEnv, env);
    return [];
  } catch (e) {
    return (e as EnvValidationError).problems;
  }
};

describe('ArgoEnv', () => {
  it('defaults like the argo CLI: https, verified, no base href, the workflow namespace only', () => {
    const env = loadEnv(ArgoEnv, base);
    expect(env.baseUrl).toBe('https://argo-server.argo:2746');
    expect([env.ARGO_TOKEN, env.authScheme, env.ARGO_INSECURE_SKIP_VERIFY, env.namespaces]).toEqual([
      'abc.def-123',
      'Bearer',
      false,
      undefined,
    ]);
  });

  it('accepts a bare token, a Basic token, http, a base href and a namespace list or *', () => {
    expect(loadEnv(ArgoEnv, { ...base, ARGO_TOKEN: 'abc' }).ARGO_TOKEN).toBe('abc');
    expect(loadEnv(ArgoEnv, { ...base, ARGO_TOKEN: 'Basic dXM6cHc=' }).authScheme).toBe('Basic');
    const env = loadEnv(ArgoEnv, {
      ...base,
      ARGO_SECURE: 'false',
      ARGO_BASE_HREF: 'argo/',
      ARGO_EVENT_NAMESPACES: 'argo, ci',
    });
    expect(env.baseUrl).toBe('http://argo-server.argo:2746/argo');
    expect(env.namespaces).toEqual(new Set(['argo', 'ci']));
    expect(loadEnv(ArgoEnv, { ...base, ARGO_EVENT_NAMESPACES: '*' }).namespaces).toBe('*');
    expect(loadEnv(ArgoEnv, { ...base, ARGO_SERVER: '[::1]:2746' }).baseUrl).toBe('https://[::1]:2746');
  });

  it.each([
    [{ ARGO_SERVER: 'https://argo:2746' }, /^ARGO_SERVER: must be host:port without a scheme or path/],
    [{ ARGO_SERVER: 'argo:99999' }, /^ARGO_SERVER: port 99999 is out of range$/],
    [{ ARGO_TOKEN: 'Bearer a b' }, /^ARGO_TOKEN: must be one token/],
    [{ ARGO_SECURE: 'maybe' }, /^ARGO_SECURE: /],
    [{ ARGO_BASE_HREF: '/a b/' }, /^ARGO_BASE_HREF: must be a URL path/],
    [{ ARGO_EVENT_NAMESPACES: 'argo,Bad_NS' }, /^ARGO_EVENT_NAMESPACES: /],
    [
      { ARGO_CA_FILE: '/nonexistent/ca.pem' },
      /^ARGO_CA_FILE: cannot read \/nonexistent\/ca\.pem \(ENOENT\)$/,
    ],
    [{ ARGO_CA_CERT: 'not a pem' }, /^ARGO_CA_CERT: holds no PEM certificate$/],
    [
      { ARGO_INSECURE_SKIP_VERIFY: 'true', ARGO_SECURE: 'false' },
      /^ARGO_INSECURE_SKIP_VERIFY: is true but ARGO_SECURE is false/,
    ],
    [{ ARGO_REQUEST_TIMEOUT: '1m' }, /^ARGO_REQUEST_TIMEOUT: /],
  ])('%j fails fast', (extra, problem) => {
    expect(problems({ ...base, ...extra } as Record<string, string>)).toEqual([
      expect.stringMatching(problem),
    ]);
  });

  it('ARGO_SERVER and ARGO_TOKEN are required; the token value is never in the problems', () => {
    expect(problems({})).toEqual(['ARGO_SERVER: is required', 'ARGO_TOKEN: is required']);
    expect(problems({ ...base, ARGO_TOKEN: 'Bearer very-secret token' }).join()).not.toContain('very-secret');
  });

  it('a CA with ARGO_SECURE=false or with ARGO_INSECURE_SKIP_VERIFY is a contradiction', () => {
    const dir = mkdtempSync(join(tmpdir(), 'argo-env-'));
    try {
      const ca = join(dir, 'ca.pem');
      writeFileSync(ca, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
      expect(loadEnv(ArgoEnv, { ...base, ARGO_CA_FILE: ca }).ca?.toString()).toContain('BEGIN CERTIFICATE');
      expect(problems({ ...base, ARGO_CA_FILE: ca, ARGO_SECURE: 'false' })).toEqual([
        'ARGO_CA_FILE: is set but ARGO_SECURE is false (plain http has no certificates)',
      ]);
      expect(problems({ ...base, ARGO_CA_FILE: ca, ARGO_INSECURE_SKIP_VERIFY: 'true' })).toEqual([
        'ARGO_CA_FILE: is set together with ARGO_INSECURE_SKIP_VERIFY=true; choose one',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
