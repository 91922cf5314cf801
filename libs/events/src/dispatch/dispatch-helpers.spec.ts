import { dnsFriendly } from './dns-friendly.js';
import { sprintS } from './go-sprintf.js';
import { invalidMessage, objectMetaProblems } from './kubernetes-validation.js';

describe('dnsFriendly (creator labels)', () => {
  it.each([
    ['system:serviceaccount:argo:github.com', 'system-serviceaccount-argo-github.com'],
    ['my-sub', 'my-sub'],
    ['ci.at.example.com', 'ci.at.example.com'],
    [`${'a'.repeat(70)}:x`, `${'a'.repeat(61)}-x`],
    ['--x--', 'x'],
    ['@@', ''],
  ])('%s → %s', (input, output) => expect(dnsFriendly(input)).toBe(output));
});

describe('Go %s of expression results', () => {
  it.each([
    ['garbage', 'garbage'],
    [null, '%!s(<nil>)'],
    [1.5, '%!s(float64=1.5)'],
    [3n, '%!s(int=3)'],
    [['a', 1], '[a %!s(float64=1)]'],
    [
      new Map<string, unknown>([
        ['b', 'x'],
        ['a', true],
      ]),
      'map[a:%!s(bool=true) b:x]',
    ],
  ])('%p → %s', (value, text) => expect(sprintS(value as never)).toBe(text));
});

describe('Kubernetes object-meta validation at create', () => {
  const meta = (
    name: string,
    labels: Record<string, string> = {},
    annotations: Record<string, string> = {},
  ) => ({
    name,
    labels,
    annotations,
  });

  it('accepts valid names, labels and annotations', () => {
    expect(
      objectMetaProblems(
        meta('my-wft-abc12', { 'workflows.argoproj.io/creator': 'my-sub', env: '' }, { note: 'any text' }),
      ),
    ).toEqual([]);
  });

  it('names the bad field and value', () => {
    const problems = objectMetaProblems(meta('My_Name', { k: 'a b', 'bad key!': 'v', long: 'x'.repeat(64) }));
    expect(problems).toHaveLength(4);
    expect(problems[0]).toMatch(/^metadata\.name: Invalid value: "My_Name": a lowercase RFC 1123 subdomain/);
    expect(problems[1]).toMatch(
      /^metadata\.labels: Invalid value: "a b": a valid label must be an empty string/,
    );
    expect(problems[2]).toMatch(/^metadata\.labels: Invalid value: "bad key!": name part must consist of/);
    expect(problems[3]).toBe(
      `metadata.labels: Invalid value: "${'x'.repeat(64)}": must be no more than 63 characters`,
    );
    expect(invalidMessage('x', ['a', 'b'])).toBe('Workflow.argoproj.io "x" is invalid: [a, b]');
  });
});
