import { join } from 'node:path';
import { alternation, compareSamples, renderComparison, type Sample } from './revision-compare.js';
import { prepareRevision, type RevisionIo } from './revision.js';

const COMMIT = 'c0d9c75aa0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5';
const PLAN = { apps: [{ app: 'collection', entry: '/e', standIns: '/s' }], skipped: [] };

/** Records the commands; a path exists once a command made it (or from the start). */
function fakeIo(existing: string[] = []): RevisionIo & { commands: string[] } {
  const made = new Set(existing);
  const commands: string[] = [];
  return {
    commands,
    run: (command, args, { cwd }) => {
      commands.push(`${cwd}$ ${command} ${args.join(' ')}`);
      if (command === 'git') return `${COMMIT}\n`;
      return '';
    },
    exists: (path) => made.has(path),
    read: () => JSON.stringify(PLAN),
  };
}

describe('prepareRevision', () => {
  const options = { root: '/repo', cache: '/cache', node: '/node24/bin/node' };
  const dir = join('/cache', COMMIT.slice(0, 12));

  it('copies the commit out of the repository, installs its dependencies with Node 24 and builds it', () => {
    const io = fakeIo();
    const revision = prepareRevision('c0d9c75', options, io);
    expect(revision).toEqual({ rev: 'c0d9c75', commit: COMMIT, dir, ...PLAN });
    expect(io.commands.map((c) => c.split(' ').slice(0, 3).join(' '))).toEqual([
      '/repo$ git rev-parse',
      '/repo$ sh -c',
      `${dir}$ npm ci`,
      `${dir}$ /node24/bin/node /repo/bench/revision-build.mjs`,
    ]);
    expect(io.commands[1]).toContain(`git -C "$2" archive --format=tar "$3"`);
    expect(io.commands[1]).toContain(`${dir} /repo ${COMMIT} .revision-copied`);
  });

  it('reuses the cached copy, its node_modules and its builds', () => {
    const cached = ['.revision-copied', 'node_modules/.package-lock.json', 'bench/.work/revision-plan.json'];
    const io = fakeIo(cached.map((f) => join(dir, f)));
    expect(prepareRevision('c0d9c75', options, io).apps).toEqual(PLAN.apps);
    expect(io.commands).toEqual([`/repo$ git rev-parse --verify c0d9c75^{commit}`]);
  });

  it('installs again where an earlier npm ci did not finish, without copying again', () => {
    const io = fakeIo([join(dir, '.revision-copied'), join(dir, 'bench/.work/revision-plan.json')]);
    prepareRevision('c0d9c75', options, io);
    expect(io.commands.slice(1)).toEqual([`${dir}$ npm ci --no-audit --no-fund`]);
  });
});

describe('alternation', () => {
  it('takes each app from both sides next to each other, the first side alternating and the apps rotating', () => {
    const order = alternation(['a', 'b'], 3).map((t) => `${t.app}:${t.side[0]}`);
    expect(order).toEqual([
      'a:b',
      'a:c',
      'b:b',
      'b:c',
      'b:c',
      'b:b',
      'a:c',
      'a:b',
      'a:b',
      'a:c',
      'b:b',
      'b:c',
    ]);
  });

  it('gives every side the same number of samples', () => {
    const turns = alternation(['a', 'b', 'c'], 5);
    for (const app of ['a', 'b', 'c'])
      for (const side of ['baseline', 'current'])
        expect(turns.filter((t) => t.app === app && t.side === side)).toHaveLength(5);
  });
});

describe('compareSamples', () => {
  it('gives the medians, their difference and the larger interquartile range as the spread', () => {
    const sample = (side: Sample['side'], ms: number, mib: number, round: number): Sample => ({
      app: 'collection',
      side,
      round,
      ms,
      rssKiB: mib * 1024,
    });
    const samples = [
      ...[100, 110, 120, 130, 140].map((ms, i) => sample('baseline', ms, 60, i)),
      ...[90, 95, 100, 105, 400].map((ms, i) => sample('current', ms, 70 + i, i)),
    ];
    expect(compareSamples(samples)).toEqual([
      {
        app: 'collection',
        metric: 'cold start',
        unit: 'ms',
        n: { baseline: 5, current: 5 },
        baseline: 120,
        current: 100,
        difference: -20,
        spread: 20,
      },
      {
        app: 'collection',
        metric: 'idle memory',
        unit: 'MiB',
        n: { baseline: 5, current: 5 },
        baseline: 60,
        current: 72,
        difference: 12,
        spread: 2,
      },
    ]);
  });

  it('leaves out a failed sample rather than counting it as zero', () => {
    const rows = compareSamples([
      { app: 'x', side: 'baseline', round: 0, ms: 100, rssKiB: 1024 },
      { app: 'x', side: 'current', round: 0 },
    ]);
    expect(rows[0]).toMatchObject({
      n: { baseline: 1, current: 0 },
      current: undefined,
      difference: undefined,
    });
  });

  it('compares the own template apart from the foreign one, each with its own samples', () => {
    const at = (side: Sample['side'], template: Sample['template'], ms: number, mib: number): Sample => ({
      app: 'data-job-runner',
      side,
      round: 0,
      template,
      ms,
      rssKiB: mib * 1024,
    });
    const rows = compareSamples([
      at('baseline', 'foreign', 100, 60),
      at('current', 'foreign', 110, 62),
      at('baseline', 'own', 300, 70),
      at('current', 'own', 240, 75),
    ]);
    expect(rows.map((r) => [r.metric, r.baseline, r.current])).toEqual([
      ['cold start', 100, 110],
      ['idle memory', 60, 62],
      ['cold start, own', 300, 240],
      ['memory after own call', 70, 75],
    ]);
  });

  it('gives no own-template rows when no sidecar was sampled with its own template', () => {
    const rows = compareSamples([{ app: 'x', side: 'baseline', round: 0, template: 'foreign', ms: 1 }]);
    expect(rows.map((r) => r.metric)).toEqual(['cold start', 'idle memory']);
  });
});

describe('renderComparison', () => {
  const rows = compareSamples([
    { app: 'collection', side: 'baseline', round: 0, ms: 100, rssKiB: 60 * 1024 },
    { app: 'collection', side: 'current', round: 0, ms: 90, rssKiB: 61 * 1024 },
  ]);
  const base = { rev: 'M^1', commit: 'a'.repeat(40) };

  it('names the working tree as the current side', () => {
    const text = renderComparison(rows, base);
    expect(text).toContain('side by side: M^1 (aaaaaaaaaaaa) and the working tree,');
    expect(text).toMatch(/baseline M\^1 +current/);
  });

  it('names the candidate revision where --candidate replaced the working tree', () => {
    const text = renderComparison(rows, base, { rev: 'M', commit: 'b'.repeat(40) });
    expect(text).toContain('side by side: M^1 (aaaaaaaaaaaa) and M (bbbbbbbbbbbb),');
    expect(text).toMatch(/baseline M\^1 +M +difference/);
  });
});
