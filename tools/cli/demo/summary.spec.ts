import { summaryLines } from './summary.js';

describe('summaryLines', () => {
  it('lines up every column, a long binding row and a row without a duration included', () => {
    const lines = summaryLines([
      ['manifests/chat-notifier/examples/notify.yaml', 'Succeeded', 'as expected', 812],
      [
        'deploy-shop-api-0123456789abcdef (binding deploy-on-build-finished)',
        'Succeeded',
        'as expected',
        undefined,
      ],
      ['manifests/build-trigger/examples/jenkins-build.yaml', 'Failed', 'expected Succeeded', 20417],
    ]);
    const phaseColumn = lines.map((l) => l.indexOf(/Succeeded|Failed/.exec(l)![0]));
    expect(new Set(phaseColumn).size).toBe(1);
    const verdictColumn = lines.map((l) => l.search(/as expected|expected Succeeded/));
    expect(new Set(verdictColumn).size).toBe(1);
    expect(lines[1]).not.toContain(' ms');
    expect(lines[2]).toMatch(/^ {2}✖ /);
  });
});
