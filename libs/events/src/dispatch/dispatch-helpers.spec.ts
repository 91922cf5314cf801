import { dnsFriendly } from './dns-friendly.js';
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
