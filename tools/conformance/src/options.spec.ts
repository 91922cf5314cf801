import { join } from 'node:path';
import { parseCliArgs, UsageError } from './options.js';

/** Any readable file serves as a token file for the parser. */
const tokenFile = join(import.meta.dirname, 'options.ts');
const base = ['--url', 'http://127.0.0.1:4355', '--token-file', tokenFile, '--key', 'hello'];

describe('parseCliArgs', () => {
  it('applies the defaults: text output, as-in-a-cluster timing', () => {
    expect(parseCliArgs(base)).toEqual({
      agent: 'local',
      url: 'http://127.0.0.1:4355',
      tokenFile,
      key: 'hello',
      config: undefined,
      countUrl: undefined,
      countAuthEnv: undefined,
      secretEnv: [],
      start: undefined,
      output: 'text',
      junitFile: undefined,
      timeScale: 1,
      startWindowMs: 15_000,
      gracePeriodMs: 30_000,
      pollTimeoutMs: 300_000,
      skip: [],
      strict: false,
      verbose: false,
    });
  });

  it('takes several names after one --secret-env, repeated flags and comma lists', () => {
    const o = parseCliArgs([
      ...base,
      '--secret-env',
      'A',
      'B',
      '--strict',
      '--secret-env',
      'C,D',
      '--skip',
      'sigterm',
    ]);
    expect(o).toMatchObject({ secretEnv: ['A', 'B', 'C', 'D'], skip: ['sigterm'], strict: true });
  });

  it("takes the env var of the counter's Authorization header", () => {
    expect(
      parseCliArgs([...base, '--count-url', 'http://c/count', '--count-auth-env', 'ARGO_TOKEN']),
    ).toMatchObject({
      countUrl: 'http://c/count',
      countAuthEnv: 'ARGO_TOKEN',
    });
  });

  it('parses Go durations and the time scale', () => {
    const o = parseCliArgs([
      ...base,
      '--grace-period',
      '1m30s',
      '--poll-timeout',
      '90s',
      '--time-scale',
      '0.1',
      '--deadline',
      '12m',
    ]);
    expect(o).toMatchObject({
      gracePeriodMs: 90_000,
      pollTimeoutMs: 90_000,
      timeScale: 0.1,
      deadlineMs: 720_000,
    });
  });

  it.each([
    [['--url', 'http://x', '--key', 'k'], '--token-file is required'],
    [[...base, '--output', 'xml'], '--output must be text, json or junit'],
    [[...base, '--grace-period', '30'], '--grace-period: expected a positive Go duration'],
    [[...base, '--deadline', 'soon'], '--deadline: expected a positive Go duration'],
    [[...base, '--time-scale', '0'], '--time-scale must be a positive number'],
    [[...base, '--bogus'], "Unknown option '--bogus'"],
    [
      ['--url', 'http://x', '--key', 'k', '--token-file', '/nonexistent/token'],
      '--token-file: /nonexistent/token: no such file',
    ],
    [[...base, '--config', 'missing-body.yaml'], '--config: missing-body.yaml: no such file'],
  ])('refuses %j', (args, message) => {
    expect(() => parseCliArgs(args)).toThrow(UsageError);
    expect(() => parseCliArgs(args)).toThrow(message);
  });

  it('takes --config inline (JSON or YAML) or as a file', () => {
    expect(parseCliArgs([...base, '--config', '{"text": "hi"}'])).toMatchObject({ config: '{"text": "hi"}' });
    expect(parseCliArgs([...base, '--config', 'text: hi'])).toMatchObject({ config: 'text: hi' });
    expect(parseCliArgs([...base, '--config', tokenFile])).toMatchObject({ config: tokenFile });
  });

  it('answers --help and --version', () => {
    expect(parseCliArgs(['--help'])).toBe('help');
    expect(parseCliArgs(['--version'])).toBe('version');
  });
});
