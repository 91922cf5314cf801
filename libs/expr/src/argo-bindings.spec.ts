// The expression side of the conformance cases and of what Argo's own bindings, docs and tests use.
import { describe, expect, it } from '@jest/globals';

import {
  compile,
  eventEnv,
  evaluate,
  execute,
  ExprCompileError,
  ExprRuntimeError,
  goTypeOf,
  metadataEnv,
  toParameterValue,
} from './index.js';
import { compileError, ENV, goValue, META_ENV, runtimeError } from './spec-helpers.js';

const GITHUB_SELECTOR = `metadata["x-github-event"] == ["push"]

// The discriminator is the last subpath of URL path
&& discriminator == "github-path-filter"

// for each of these file paths
&& any([ "subpath/A/", "subpath/B/" ], {
    let prefix = #;

    // loop over every commit
    any(payload.commits ?? [], {
      let commit = #;

      // loop over each file action in the commit
      any(["added", "removed", "modified"], {
        let file_action = #;

        // Loop over each of the files in the file action
        any(commit[file_action] ?? [], {
          let filepath = #;

          // return true if the given file is in our subpath
          hasPrefix(filepath, prefix)
        })
      })
    })
  })
`;

const FILES_PARAMETER = `// Use the reduce function to collect all files affeccted by commits in this push
reduce(
  payload.commits ?? [],
  {
    let commit = #;
    concat(#acc, commit["added"], commit["removed"], commit["modified"])
  },
  []
)
`;

function pushEvent(commits: unknown[]): Record<string, unknown> {
  return eventEnv(
    { ref: 'refs/heads/main', commits },
    { 'x-github-event': ['push'] },
    'github-path-filter',
    'argo',
  );
}

describe('github-path-filter example', () => {
  const commits = [
    { added: ['docs/readme.md'], removed: [], modified: ['subpath/B/main.go'] },
    { added: ['other/x'], removed: ['old'], modified: [] },
  ];

  it('matches a push touching a watched path', () => {
    expect(evaluate(GITHUB_SELECTOR, pushEvent(commits))).toBe(true);
  });

  it('does not match other pushes, pushes without commits or other events', () => {
    expect(evaluate(GITHUB_SELECTOR, pushEvent([{ added: ['x/y'], removed: [], modified: [] }]))).toBe(false);
    expect(
      evaluate(GITHUB_SELECTOR, eventEnv({}, { 'x-github-event': ['push'] }, 'github-path-filter', 'argo')),
    ).toBe(false);
    expect(
      evaluate(
        GITHUB_SELECTOR,
        eventEnv({ commits }, { 'x-github-event': ['ping'] }, 'github-path-filter', 'argo'),
      ),
    ).toBe(false);
  });

  it('tolerates commits without some file actions', () => {
    expect(evaluate(GITHUB_SELECTOR, pushEvent([{ modified: ['subpath/A/f'] }]))).toBe(true);
  });

  it('collects all files with reduce and concat', () => {
    const env = pushEvent(commits);
    const files = execute(compile(FILES_PARAMETER, env), env);
    expect(toParameterValue(files)).toBe('["docs/readme.md","subpath/B/main.go","other/x","old"]');
    expect(evaluate(FILES_PARAMETER, eventEnv({}, {}, '', 'argo'))).toEqual([]);
  });

  it('fails at runtime when a commit lacks a file action list', () => {
    const error = runtimeError(FILES_PARAMETER, pushEvent([{ added: ['a'] }]));
    expect(error.reason).toBe('cannot concat invalid');
  });
});

describe('conformance cases (expression level)', () => {
  it('1-3: literal selectors', () => {
    expect(goValue('true')).toBe(true);
    expect(goValue('false')).toBe(false);
    expect(goValue('"bar"')).toBe('bar');
  });

  it('4: nested payload selector and object parameter', () => {
    const selector = "payload.foo.bar == 'baz'";
    expect(evaluate(selector, eventEnv({ foo: { bar: 'baz' }, formatted: 'My%Test%' }, {}, '', 'argo'))).toBe(
      true,
    );
    expect(evaluate(selector, eventEnv({ foo: { bar: 'qux' } }, {}, '', 'argo'))).toBe(false);
    expect(toParameterValue(evaluate('payload.foo', eventEnv({ foo: { bar: 'baz' } }, {}, '', 'argo')))).toBe(
      '{"bar":"baz"}',
    );
  });

  it('5: string parameter with %', () => {
    expect(toParameterValue(goValue('payload.formatted'))).toBe('My%Test%');
  });

  it('7, 8, 10: empty and malformed expressions are compile errors', () => {
    expect(compileError('').reason).toBe('unexpected token EOF');
    expect(compileError('garbage!!!!!!').reason).toContain('unexpected token');
    expect(compileError('rubbish!!!').reason).toContain('unexpected token');
  });

  it('9: non-bool selector results are values for the endpoint to reject', () => {
    expect(goValue('"garbage"')).toBe('garbage');
    expect(goValue('payload.s')).toBe('x');
    expect(goValue('nil')).toBe(null);
  });

  it('15: header match', () => {
    const selector = 'payload.appellation != "" && metadata["x-argo-e2e"] == ["true"]';
    const body = { appellation: 'Mr Chips' };
    expect(evaluate(selector, eventEnv(body, { 'x-argo-e2e': ['true'] }, '', 'argo'))).toBe(true);
    expect(evaluate(selector, eventEnv(body, {}, '', 'argo'))).toBe(false);
    expect(toParameterValue(evaluate('payload.appellation', eventEnv(body, {}, '', 'argo')))).toBe(
      'Mr Chips',
    );
  });

  it('16: header rules', () => {
    expect(goValue('metadata["x-valid"] == ["true"]')).toBe(true);
    expect(goValue('metadata["ignored"] == nil')).toBe(true);
    expect(goValue('metadata["authorization"] == nil')).toBe(true);
    expect(goValue('metadata["X-Valid"] == nil')).toBe(true);
    expect(goValue('metadata["x-valid"] == "true"')).toBe(false);
    expect(goValue('metadata["x-twice"] == ["a", "b"]')).toBe(true);
    expect(goValue('"a" in metadata["x-twice"]')).toBe(true);
    expect(goValue('metadata["x-multi"] == ["a, b"]')).toBe(true);
  });

  it('17: gateway-added headers', () => {
    const env = eventEnv({}, { 'x-forwarded-for': ['10.0.0.5'], 'x-forwarded-host': ['h', 'h'] }, '', 'argo');
    expect(evaluate('len(metadata["x-forwarded-for"]) == 1', env)).toBe(true);
    expect(evaluate('metadata["x-forwarded-host"] == ["h","h"]', env)).toBe(true);
  });

  it('18: discriminator and namespace', () => {
    expect(goValue('discriminator == "my-discriminator"')).toBe(true);
    expect(evaluate('discriminator == "my-discriminator"', eventEnv({}, {}, '', 'argo'))).toBe(false);
    expect(goValue('namespace == "argo"')).toBe(true);
    expect(
      goValue(
        'payload.message != "" && metadata["x-valid"] == ["true"] && discriminator == "my-discriminator"',
      ),
    ).toBe(true);
  });

  it('20: bodies', () => {
    const noBody = eventEnv(undefined, {}, '', 'argo');
    expect(evaluate('payload == nil', noBody)).toBe(true);
    expect(evaluate('payload == nil', eventEnv(null, {}, '', 'argo'))).toBe(true);
    expect(compileError('payload.x == 1', noBody).reason).toBe('type nil has no field x');
    expect(evaluate('payload[1] == 2', eventEnv([1, 2], {}, '', 'argo'))).toBe(true);
    expect(evaluate('payload == "hi"', eventEnv('hi', {}, '', 'argo'))).toBe(true);
  });

  it('21: missing field vs nil', () => {
    const empty = eventEnv({}, {}, '', 'argo');
    expect(evaluate('payload.message != ""', empty)).toBe(true);
    expect(toParameterValue(evaluate('payload.message', empty))).toBe('null');
    expect(runtimeError('payload.a.b == 1', empty).reason).toBe('cannot fetch b from <nil>');
    expect(evaluate('payload.a?.b == nil', empty)).toBe(true);
  });

  it('22: numbers', () => {
    const env = eventEnv({ n: 1, ids: [1, 2] }, {}, '', 'argo');
    expect(evaluate('payload.n == 1', env)).toBe(true);
    expect(evaluate('payload.ids == [1,2]', env)).toBe(true);
    expect(runtimeError('"x" + payload.n', env).reason).toBe('invalid operation: string + float64');
  });

  it('23: unknown names and builtins', () => {
    expect(compileError('event.payload.message == "x"').reason).toBe('unknown name event');
    expect(compileError('sprig.toString(1) == "1"').reason).toBe('unknown name sprig');
    expect(goValue('toJSON(1) == "1"')).toBe(true);
  });

  it('25, 26, 28-30: metadata expressions', () => {
    expect(goValue('"my-wfeb-2"', META_ENV)).toBe('my-wfeb-2');
    expect(goValue('"my-wfeb-" + payload.foo.bar', META_ENV)).toBe('my-wfeb-baz');
    expect(goValue('payload.list[0]', META_ENV)).toBe('one');
    expect(goValue('payload.list[1]', META_ENV)).toBe('two');
    expect(goValue('"\\"someValue\\""', META_ENV)).toBe('"someValue"');
    expect(goValue('"my-wft-pr-"+sprig.toString(payload.foo.pr)+"-"', META_ENV)).toBe('my-wft-pr-112-');
    expect(goValue('"from-binding"', META_ENV)).toBe('from-binding');
    expect(goValue('"fixed"', META_ENV)).toBe('fixed');
  });

  it('27: non-string metadata results keep their Go type names', () => {
    const types: [string, string][] = [
      ['payload.foo.numeric', 'float64'],
      ['payload.foo.bool', 'bool'],
      ['payload.foo', 'map[string]interface {}'],
      ['payload.list', '[]interface {}'],
      ['payload.nothing', '<nil>'],
      ['len(payload.list)', 'int'],
    ];
    for (const [source, type] of types)
      expect([source, goTypeOf(goValue(source, META_ENV))]).toEqual([source, type]);
  });

  it('27: syntax errors in metadata expressions are compile errors', () => {
    expect(() => compile('"my-" +', META_ENV)).toThrow(ExprCompileError);
    expect(() => execute(compile('"my-" + payload.foo.numeric', META_ENV), META_ENV)).toThrow(
      ExprRuntimeError,
    );
  });
});

describe('§7 expressions from Argo docs and tests', () => {
  it.each<[string, unknown]>([
    ['payload.appellation != ""', true],
    ['metadata["x-github-event"] == ["push"]', false],
    ['payload.message', null],
    ['payload.foo', { bar: 'baz', numeric: 8675309, bool: true, pr: 112 }],
    ['"bar"', 'bar'],
  ])('%s', (source, expected) => {
    expect(evaluate(source, ENV)).toEqual(expected);
  });

  it('builds the metadata environment on top of the event environment', () => {
    const env = metadataEnv(eventEnv({ a: 1 }, {}, 'd', 'ns'));
    expect(Object.keys(env).sort()).toEqual(
      [
        'asFloat',
        'asInt',
        'discriminator',
        'jsonpath',
        'metadata',
        'namespace',
        'payload',
        'sprig',
        'toJson',
      ].sort(),
    );
  });
});
