import type { AgentNode } from './agent-node.js';
import { renderResult, resultJson } from './render.js';
import type { WorkflowResult } from './workflow-runner.js';

const node = (over: Partial<AgentNode>): AgentNode => ({
  id: over.name ?? 'x',
  name: 'x',
  displayName: 'x',
  type: 'Plugin',
  templateName: 't',
  phase: 'Succeeded',
  children: [],
  startedAt: 0,
  finishedAt: 2000,
  calls: 1,
  ...over,
});

function result(nodes: AgentNode[], phase: WorkflowResult['phase'] = 'Succeeded'): WorkflowResult {
  return {
    name: 'wf',
    namespace: 'argo',
    uid: 'u',
    phase,
    startedAt: 0,
    finishedAt: 3000,
    parameters: { channel: '#builds' },
    nodes,
    warnings: [],
    rpcCalls: {},
    node: (d) => nodes.find((n) => n.displayName === d),
  };
}

describe('renderResult', () => {
  const tree = result(
    [
      node({
        id: 'wf',
        name: 'wf',
        displayName: 'wf',
        type: 'Steps',
        templateName: 'main',
        children: ['g0'],
      }),
      node({
        id: 'g0',
        name: 'wf[0]',
        displayName: '[0]',
        type: 'StepGroup',
        templateName: '',
        children: ['a', 'b'],
      }),
      node({
        id: 'a',
        name: 'wf[0].notify',
        displayName: 'notify',
        templateName: 'slack',
        message: 'posted to #builds',
        outputs: { parameters: [{ name: 'ts', value: 'x'.repeat(200) }] },
      }),
      node({
        id: 'b',
        name: 'wf[0].build',
        displayName: 'build',
        templateName: 'ci',
        phase: 'Failed',
        message: 'jenkins: FAILURE',
      }),
    ],
    'Failed',
  );

  it('prints a header and a node tree like argo get, step groups folded away', () => {
    const text = renderResult(tree);
    expect(text).toContain(
      'Name:                wf\nNamespace:           argo\nStatus:              Failed\n',
    );
    expect(text).toContain('Parameters:\n  channel: #builds\n');
    const lines = text.split('\n');
    expect(lines.find((l) => l.includes('├─✔ notify'))).toMatch(
      /├─✔ notify\s+slack\s+Succeeded\s+2s\s+posted to #builds/,
    );
    expect(lines.find((l) => l.includes('└─✖ build'))).toMatch(
      /└─✖ build\s+ci\s+Failed\s+2s\s+jenkins: FAILURE/,
    );
    expect(text).not.toContain('[0]');
  });

  it('hangs output parameters under their node without widening the columns, long values cut', () => {
    const lines = renderResult(tree).split('\n');
    const param = lines.find((l) => l.includes('ts='))!;
    expect(param).toMatch(/^ │ {5}ts=x{77}\.\.\.$/);
    const header = lines.find((l) => l.startsWith('STEP'))!;
    expect(header.indexOf('TEMPLATE')).toBeLessThan(20);
  });

  it('shows a phase it does not know (a plugin may answer any string) as ?', () => {
    for (const phase of ['constructor', 'toString', 'Bogus']) {
      const root = node({ id: 'wf', name: 'wf', displayName: 'wf', phase: phase as AgentNode['phase'] });
      expect(renderResult(result([root])).split('\n')).toContainEqual(expect.stringMatching(/^ \? wf\s/));
    }
  });

  it('has a JSON form with the same nodes', () => {
    const json = resultJson(tree) as {
      status: { phase: string; nodes: Record<string, { displayName: string }> };
      failed: boolean;
    };
    expect(json.status.phase).toBe('Failed');
    expect(json.failed).toBe(true);
    expect(Object.values(json.status.nodes).map((n) => n.displayName)).toEqual([
      'wf',
      '[0]',
      'notify',
      'build',
    ]);
  });
});
