import { createLogger } from './plugin-logger.js';
import { Redactor } from './redactor.js';

function recorded(level: 'debug' | 'info' | 'warn' | 'error' | 'silent', redactor = new Redactor()) {
  const lines: string[] = [];
  const logger = createLogger({
    level,
    redactor,
    destination: { write: (line: string) => lines.push(line) },
  });
  return { logger, lines, parsed: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('the kit logger', () => {
  it('writes one JSON object a line: level, time, base, bindings, fields, msg, in that order', () => {
    const lines: string[] = [];
    const logger = createLogger({
      level: 'info',
      base: { plugin: 'p', version: '1.0.0' },
      redactor: new Redactor(),
      destination: { write: (line: string) => lines.push(line) },
    });
    logger.child({ workflow: 'wf' }).child({ execution: 'k' }).info({ n: 1, ok: true }, 'started');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/\n$/);
    expect(lines[0].slice(0, -1)).not.toContain('\n');
    const line = JSON.parse(lines[0]) as Record<string, unknown>;
    expect(Object.keys(line)).toEqual([
      'level',
      'time',
      'plugin',
      'version',
      'workflow',
      'execution',
      'n',
      'ok',
      'msg',
    ]);
    expect(line).toMatchObject({
      level: 'info',
      plugin: 'p',
      workflow: 'wf',
      execution: 'k',
      n: 1,
      msg: 'started',
    });
    expect(new Date(line.time as string).toISOString()).toBe(line.time);
  });

  it('writes the levels at or above its own, masked, through children too', () => {
    const { logger, parsed } = recorded('warn', new Redactor().add('s3cr3t-value'));
    const child = logger.child({ plugin: 'p' });
    child.info('not written');
    child.warn({ token: 's3cr3t-value' }, 'written');
    logger.error('also written');
    expect(parsed()).toEqual([
      expect.objectContaining({ level: 'warn', plugin: 'p', token: '[REDACTED]', msg: 'written' }),
      expect.objectContaining({ level: 'error', msg: 'also written' }),
    ]);
  });

  it('writes nothing at level silent', () => {
    const { logger, lines } = recorded('silent');
    logger.error('dropped');
    logger.child({ a: 1 }).error({ b: 2 }, 'dropped');
    expect(lines).toEqual([]);
  });

  it('writes errors with their class, message, stack, own fields and cause', () => {
    const { logger, parsed } = recorded('debug');
    const err = Object.assign(new TypeError('bad thing', { cause: new Error('root') }), { code: 'E_BAD' });
    logger.error({ err }, 'failed');
    const [line] = parsed();
    expect(line.err).toMatchObject({
      type: 'TypeError',
      message: 'bad thing',
      code: 'E_BAD',
      cause: { type: 'Error', message: 'root' },
    });
    expect((line.err as { stack: string }).stack).toContain('TypeError: bad thing');
  });

  it('never throws on what it is given: cycles, bigints, throwing getters, an error as the fields', () => {
    const { logger, parsed } = recorded('debug');
    const cyclic: Record<string, unknown> = { name: 'a' };
    cyclic.self = cyclic;
    const shared = { x: 1 };
    const selfCaused = new Error('loop');
    (selfCaused as { cause?: unknown }).cause = selfCaused;
    logger.info({ cyclic, twice: [shared, shared], big: 10n ** 20n, selfCaused }, 'odd');
    logger.info(
      Object.defineProperty({}, 'boom', {
        enumerable: true,
        get() {
          throw new Error('getter');
        },
      }) as Record<string, unknown>,
      'getter',
    );
    logger.error(new Error('as fields') as unknown as Record<string, unknown>, 'error object');
    const [odd, getter, asFields] = parsed();
    expect(odd).toMatchObject({
      cyclic: { name: 'a', self: '[Circular]' },
      twice: [{ x: 1 }, { x: 1 }],
      big: '100000000000000000000',
      selfCaused: { message: 'loop', cause: '[Circular]' },
      msg: 'odd',
    });
    expect(getter).toMatchObject({ logError: 'fields not serialisable: getter', msg: 'getter' });
    expect(asFields).toMatchObject({ err: { message: 'as fields' }, msg: 'error object' });
  });

  it('masks an Authorization header wherever it sits, and known secrets in the whole line', () => {
    const redactor = new Redactor().add('tok-1234567890');
    const { logger, lines } = recorded('debug', redactor);
    logger
      .child({ url: 'https://x/?t=tok-1234567890' })
      .warn(
        { authorization: 'Basic abc', req: { headers: { Authorization: 'Bearer xyz' } } },
        'sent tok-1234567890',
      );
    expect(lines[0]).not.toMatch(/abc|xyz|tok-1234567890/);
    expect(JSON.parse(lines[0])).toMatchObject({
      authorization: '[REDACTED]',
      req: { headers: { Authorization: '[REDACTED]' } },
    });
  });
});
