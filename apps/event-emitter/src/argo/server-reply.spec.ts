import { UpstreamError } from '@app/plugin-kit';
import { workflowsAlreadyCreated } from './already-delivered.js';
import { interpretReply } from './server-reply.js';

const KEY = 'ab12cd34ef56ab78cd90ef12ab34cd56ef78ab90cd12ef34ab56cd78ef90ab12';
const event = { namespace: 'argo', discriminator: 'd', key: KEY, baseHref: '' };
const reply = (status: number, data: unknown, retryAfter?: string) => ({
  status,
  data,
  path: '/api/v1/events/argo/d',
  ...(retryAfter && { retryAfter }),
});

describe('interpretReply', () => {
  it('200 → Succeeded with the outputs', () => {
    expect(interpretReply(reply(200, {}), event)).toEqual({
      node: {
        phase: 'Succeeded',
        message: 'event sent to argo/d: accepted (the server does not say whether a binding matched)',
        outputs: {
          parameters: [
            { name: 'status', value: 'accepted' },
            { name: 'namespace', value: 'argo' },
            { name: 'discriminator', value: 'd' },
          ],
        },
      },
    });
  });

  it.each([
    [503, { code: 14, message: 'operation queue full' }, '7', 7000],
    [429, 'Too Many Requests', '2', 2000],
    [502, '<html><title>502 Bad Gateway</title></html>', undefined, undefined],
    [504, '', undefined, undefined],
    [500, '<html><body><h1>500 Internal Server Error</h1></body></html>', undefined, undefined],
    [500, { code: 13, message: 'etcdserver: request timed out' }, undefined, undefined],
  ])('%i → a transient UpstreamError honouring Retry-After', (status, data, retryAfter, ms) => {
    let thrown: unknown;
    try {
      interpretReply(reply(status, data, retryAfter), event);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(UpstreamError);
    expect((thrown as UpstreamError).transient).toBe(true);
    expect((thrown as UpstreamError).retryAfterMs).toBe(ms);
  });

  it.each([
    [
      400,
      { code: 3, message: 'unexpected EOF' },
      'workflow-event: POST /api/v1/events/argo/d → 400: unexpected EOF',
    ],
    [403, '{"message": "failed to process webhook request"}', 'No Authorization header reached the server'],
    [404, 'not found', 'check ARGO_BASE_HREF (now "")'],
    [409, { message: 'conflict' }, 'workflow-event: POST /api/v1/events/argo/d → 409: conflict'],
  ])('%i → Failed', (status, data, text) => {
    const node = interpretReply(
      reply(status, typeof data === 'string' && data.startsWith('{') ? JSON.parse(data) : data),
      event,
    ).node!;
    expect(node.phase).toBe('Failed');
    expect(node.message).toContain(text);
  });

  it('a dispatch 500 → Failed without a retry: some bindings may already have submitted', () => {
    const message =
      'failed to dispatch event: [failed to get workflow template: workflowtemplates.argoproj.io "x" not found]';
    const node = interpretReply(reply(500, { code: 13, message }), event).node!;
    expect(node.phase).toBe('Failed');
    expect(node.message).toContain('so the event is not sent again');
  });

  it('500 whose every error is an AlreadyExists of a workflow named with this key → already delivered', () => {
    const message = `failed to dispatch event: [failed to create workflow: workflows.argoproj.io "deploy-${KEY.slice(0, 16)}" already exists]`;
    const node = interpretReply(reply(500, { code: 13, message }), event).node!;
    expect(node.phase).toBe('Succeeded');
    expect(node.outputs?.parameters?.[0]).toEqual({ name: 'status', value: 'already-delivered' });
  });
});

describe('workflowsAlreadyCreated', () => {
  const exists = (name: string) =>
    `failed to create workflow: workflows.argoproj.io "${name}" already exists`;
  it.each([
    [
      `failed to dispatch event: [${exists(`a-${KEY.slice(0, 12)}`)} ${exists(`b-${KEY.slice(10, 40)}`)}]`,
      [`a-${KEY.slice(0, 12)}`, `b-${KEY.slice(10, 40)}`],
    ],
    [`failed to dispatch event: [${exists('fixed')}]`, undefined],
    [`failed to dispatch event: [${exists(`a-${KEY.slice(0, 11)}`)}]`, undefined],
    [
      `failed to dispatch event: [${exists(`a-${KEY.slice(0, 16)}`)} failed to get workflow template: x]`,
      undefined,
    ],
    // What Argo v4.1 answers for a binding's workflow (made from a template, so with a generateName too).
    [
      `failed to dispatch event: [${exists(`deploy-shop-api-${KEY.slice(0, 16)}`)}, the server was not able to generate a unique name for the object]`,
      [`deploy-shop-api-${KEY.slice(0, 16)}`],
    ],
    [
      `failed to dispatch event: [${exists('fixed')}, the server was not able to generate a unique name for the object]`,
      undefined,
    ],
    ['operation queue full', undefined],
  ])('%s → %j', (message, names) => expect(workflowsAlreadyCreated(message, KEY)).toEqual(names));
});
