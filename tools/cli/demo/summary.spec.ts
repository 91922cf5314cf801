import { pluginCalls, summaryTable, type DemoRun } from './summary.js';

const PASSES = ['single plugins', 'collection'];

describe('summaryTable', () => {
  const run = (workflow: string, pass: string, phase: string, expected = 'Succeeded'): DemoRun => ({
    workflow,
    calls: workflow.startsWith('deploy-') ? 'binding deploy-on-build-finished' : 'build: jenkins',
    pass,
    phase,
    expected,
  });

  it('one row per workflow with its phase in each pass, columns lined up, ✖ when a pass was not as expected', () => {
    const lines = summaryTable(
      [
        run('build-trigger/jenkins-build.yaml', 'single plugins', 'Succeeded'),
        run('chat-notifier/exit-handler-report.yaml', 'single plugins', 'Failed', 'Failed'),
        run('deploy-shop-api-0123456789abcdef', 'single plugins', 'Succeeded'),
        run('build-trigger/jenkins-build.yaml', 'collection', 'Failed'),
        run('chat-notifier/exit-handler-report.yaml', 'collection', 'Failed', 'Failed'),
      ],
      PASSES,
    );
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^ {2}WORKFLOW +PLUGIN: PROVIDER +SINGLE PLUGINS +COLLECTION$/);
    expect(lines[1]).toMatch(
      /^✖ build-trigger\/jenkins-build\.yaml +build: jenkins +Succeeded +Failed \(expected Succeeded\)$/,
    );
    expect(lines[2]).toMatch(/^✔ chat-notifier\/exit-handler-report\.yaml +build: jenkins +Failed +Failed$/);
    expect(lines[3]).toMatch(
      /^✔ deploy-shop-api-0123456789abcdef +binding deploy-on-build-finished +Succeeded$/,
    );
    const column = (text: string) => new Set(lines.map((l) => l.indexOf(text)).filter((i) => i >= 0));
    expect(column('SINGLE PLUGINS')).toEqual(new Set([lines[0].indexOf('SINGLE PLUGINS')]));
    expect(new Set(lines.slice(1).map((l) => l.search(/Succeeded|Failed/))).size).toBe(1);
  });
});

describe('pluginCalls', () => {
  it('names the plugin key and the provider block of each plugin step', () => {
    expect(
      pluginCalls([
        { plugin: { build: { github: { repo: 'a/b' }, timeout: '1h' } } },
        { plugin: { build: { gitlab: { project: 'a/b' } } } },
        { plugin: { build: { github: { repo: 'c/d' } } } },
        {},
      ]),
    ).toBe('build: github, gitlab');
    expect(
      pluginCalls([
        { plugin: { approve: { slack: {}, timeout: '1h' } } },
        { plugin: { notify: { slack: {} } } },
      ]),
    ).toBe('approve: slack · notify: slack');
  });

  it('names no provider where the body has none', () => {
    expect(pluginCalls([{ plugin: { slack: { channel: '#c', text: 'hi', file: { name: 'r.txt' } } } }])).toBe(
      'slack',
    );
    expect(pluginCalls([{ plugin: { 'workflow-event': { payload: { a: 1 }, headers: { b: '2' } } } }])).toBe(
      'workflow-event',
    );
  });
});
