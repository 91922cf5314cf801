import { spawnSync } from 'node:child_process';
import { heapFlagsForLimit, launchUnderLimit, memoryQuantityMiB } from './container-memory.js';

// Heap limit and grown young generation (MiB) of a node process that keeps 400,000 small objects alive.
const PROBE =
  'const v8=require("v8");const a=[];for(let i=0;i<4e5;i++)a.push({i});' +
  'const young=v8.getHeapSpaceStatistics().find((s)=>s.space_name==="new_space").space_size;' +
  'console.log(JSON.stringify({limit:v8.getHeapStatistics().heap_size_limit/2**20,young:young/2**20}))';

function heapOf(command: string, args: string[]): { limit: number; young: number } {
  const run = spawnSync(command, args, { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${run.status} ${run.stderr}`);
  return JSON.parse(run.stdout) as { limit: number; young: number };
}

describe('memoryQuantityMiB', () => {
  it.each([
    ['160Mi', 160],
    ['320Mi', 320],
    ['1Gi', 1024],
    ['500M', 476],
    ['1G', 953],
  ])('%s is %i MiB', (quantity, mib) => expect(memoryQuantityMiB(quantity)).toBe(mib));

  it.each(['', '256', '1.5Gi', '256Ki', 'lots', undefined])('%p is not a limit it reads', (quantity) =>
    expect(memoryQuantityMiB(quantity)).toBeUndefined(),
  );
});

describe('heapFlagsForLimit', () => {
  it('gives the old space and semi-spaces Node derives from a container limit', () => {
    expect(heapFlagsForLimit(160)).toEqual(['--max-old-space-size=256', '--max-semi-space-size=1']);
    expect(heapFlagsForLimit(320)).toEqual(['--max-old-space-size=256', '--max-semi-space-size=1']);
    expect(heapFlagsForLimit(768)).toEqual(['--max-old-space-size=384', '--max-semi-space-size=16']);
    expect(heapFlagsForLimit(1024)).toEqual(['--max-old-space-size=512', '--max-semi-space-size=16']);
    expect(heapFlagsForLimit(4096)).toEqual(['--max-old-space-size=2048', '--max-semi-space-size=64']);
  });

  it('leaves what the command line sets to the command line', () => {
    expect(heapFlagsForLimit(160, ['--max-old-space-size=64'])).toEqual(['--max-semi-space-size=1']);
    expect(heapFlagsForLimit(160, ['--max-old-space-size=64', '--max-semi-space-size=2'])).toEqual([]);
  });
});

describe('launchUnderLimit', () => {
  it('launches plainly without a limit', () => {
    const launch = launchUnderLimit('main.js', ['--max-old-space-size=64'], undefined, {
      node: '/usr/bin/node',
    });
    expect(launch).toMatchObject({ command: '/usr/bin/node', args: ['--max-old-space-size=64', 'main.js'] });
    expect(launch.model).toBe('none');
  });

  it('emulates the heap sizing when told to', () => {
    const before = process.env.CONTAINER_MEMORY;
    process.env.CONTAINER_MEMORY = 'emulate';
    try {
      const launch = launchUnderLimit('main.js', [], 320, { node: '/usr/bin/node' });
      expect(launch.args).toEqual(['--max-old-space-size=256', '--max-semi-space-size=1', 'main.js']);
      expect(launch.model).toMatch(/^emulated 320 MiB/);
      const timed = launchUnderLimit('main.js', [], 320, { node: '/usr/bin/node', emulate: false });
      expect(timed.args).toEqual(['main.js']);
      expect(timed.model).toMatch(/^none/);
    } finally {
      if (before === undefined) delete process.env.CONTAINER_MEMORY;
      else process.env.CONTAINER_MEMORY = before;
    }
  });

  // Only where this machine lets a test make a memory cgroup (root); elsewhere the suites use the emulation.
  const cgroupWorks = (() => {
    const probe = launchUnderLimit('-e0', [], 160);
    probe.release();
    return probe.model.startsWith('cgroup');
  })();
  const withCgroup = cgroupWorks ? it : it.skip;

  withCgroup.each([
    [160, []],
    [160, ['--max-old-space-size=64']],
    [320, []],
    [768, []],
    [1024, []],
    [4096, []],
  ])('a %i MiB cgroup and its emulation size the heap alike (flags %j)', (limit, flags) => {
    const launch = launchUnderLimit('-e', flags as string[], limit);
    try {
      const inCgroup = heapOf(launch.command, [...launch.args, PROBE]);
      const emulated = heapOf(process.execPath, [
        ...heapFlagsForLimit(limit, flags as string[]),
        ...(flags as string[]),
        '-e',
        PROBE,
      ]);
      expect(inCgroup).toEqual(emulated);
      // and both differ from a plain launch on this machine, or the test would prove nothing
      expect(heapOf(process.execPath, [...(flags as string[]), '-e', PROBE])).not.toEqual(inCgroup);
    } finally {
      launch.release();
    }
  });

  withCgroup('the kernel enforces the limit', () => {
    const launch = launchUnderLimit('-e', [], 96);
    try {
      const run = spawnSync(
        launch.command,
        [...launch.args, 'Buffer.alloc(200 * 2 ** 20, 1); console.log("survived")'],
        {
          encoding: 'utf8',
        },
      );
      expect(run.stdout).not.toContain('survived');
      expect(run.signal).toBe('SIGKILL');
    } finally {
      launch.release();
    }
  });
});
