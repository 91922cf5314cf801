import { createLogger } from './plugin-logger.js';
import { Redactor } from './redactor.js';

/** A destination that records every property pino reads from it, and every line written. */
function watchedDestination() {
  const touched: PropertyKey[] = [];
  const lines: string[] = [];
  const destination = new Proxy(
    { write: (line: string) => lines.push(line) },
    {
      get(target, property, receiver) {
        touched.push(property);
        return Reflect.get(target, property, receiver) as unknown;
      },
    },
  );
  return { destination, touched, lines };
}

describe('the kit logger', () => {
  it('makes nothing of pino until its first line (a hosted plugin that is never called never pays for one)', () => {
    const { destination, touched, lines } = watchedDestination();
    const logger = createLogger({ level: 'info', redactor: new Redactor(), destination });
    logger.child({ execution: 'k' });
    logger.debug('below the level');
    logger.flush();
    expect(touched).toEqual([]);
    logger.info({ n: 1 }, 'first');
    expect(touched.length).toBeGreaterThan(0);
    expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ level: 'info', n: 1, msg: 'first' }),
    ]);
  });

  it('writes the levels at or above its own, masked, through children too', () => {
    const { destination, lines } = watchedDestination();
    const logger = createLogger({
      level: 'warn',
      redactor: new Redactor().add('s3cr3t-value'),
      destination,
    });
    const child = logger.child({ plugin: 'p' });
    child.info('not written');
    child.warn({ token: 's3cr3t-value' }, 'written');
    logger.error('also written');
    expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ level: 'warn', plugin: 'p', token: '[REDACTED]', msg: 'written' }),
      expect.objectContaining({ level: 'error', msg: 'also written' }),
    ]);
  });

  it('writes nothing at level silent', () => {
    const { destination, touched, lines } = watchedDestination();
    const logger = createLogger({ level: 'silent', redactor: new Redactor(), destination });
    logger.error('dropped');
    expect(lines).toEqual([]);
    expect(touched).toEqual([]);
  });
});
