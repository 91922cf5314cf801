// Start-up checks of the sidecar, and the 429 of the server's per-IP rate limiter (httplimit), which the local
// endpoint does not emulate: a stand-in answers it the way the Argo Server does.
import { EnvValidationError } from '@app/plugin-kit';
import { startHarness, StandInServer } from '@app/local-agent';
import { eventEmitterPlugin } from '../src/event-emitter.plugin.js';
import { emit } from './support.js';

describe('start-up', () => {
  it('fails fast, naming every bad variable and never the token', async () => {
    const err = await startHarness(eventEmitterPlugin, {
      env: { ARGO_SERVER: 'https://argo:2746', ARGO_TOKEN: 'Bearer secret value', ARGO_SECURE: 'perhaps' },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EnvValidationError);
    const problems = (err as EnvValidationError).problems;
    expect(problems.map((p) => p.split(':')[0])).toEqual(['ARGO_SERVER', 'ARGO_TOKEN', 'ARGO_SECURE']);
    expect(problems.join('\n')).not.toContain('secret value');
  });
});

describe('429 from the server rate limit', () => {
  it('→ Running with a requeue of at least Retry-After; then 200 → Succeeded', async () => {
    let limited = true;
    const argo = new StandInServer('argo-server').route('POST', /^\/api\/v1\/events\/.*$/, () =>
      limited
        ? {
            status: 429,
            headers: { 'Retry-After': '30', 'Content-Type': 'text/plain; charset=utf-8' },
            body: 'Too Many Requests\n',
          }
        : { status: 200, body: {} },
    );
    const url = await argo.start();
    const h = await startHarness(eventEmitterPlugin, {
      env: { ARGO_SERVER: new URL(url).host, ARGO_TOKEN: 'Bearer t0ken-for-429', ARGO_SECURE: 'false' },
    });
    try {
      const body = emit({ headers: { 'x-a': 'b' } });
      const first = await h.execute(body);
      expect(first.body).toEqual({
        node: {
          phase: 'Running',
          message:
            'workflow-event: POST /api/v1/events/argo/ → 429: Too Many Requests; retrying in 30s (attempt 1 of 10)',
        },
        requeue: '30s',
      });
      limited = false;
      expect((await h.execute(body)).body.node?.phase).toBe('Succeeded');
      expect(argo.count('POST', '/api/v1/events/argo/')).toBe(2);
    } finally {
      await h.close();
      await argo.close();
    }
  });
});
