// Every shell command of README.md and docs/*.md works as written. The commands are read from the ```sh blocks;
// each one is either run here (in a scratch directory, with the repository's paths made absolute, /tmp/ moved to
// a scratch folder and fixed ports replaced by free ones, since other runs may hold them), or covered by the named
// test that runs it, or left out for a stated reason (kubectl and docker need a cluster or an engine; the
// long-running benchmark and soak runs). The tutorial's marked blocks (```sh tutorial, ```sh tutorial-stack) are
// run by the tests that follow docs/write-a-plugin.md (test/support/tutorial-steps.ts reads them for both). A
// command added to the docs without an entry here fails this test.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blockCommands, docBlocks } from './support/tutorial-steps.js';

const root = join(import.meta.dirname, '..');
const DOCS = ['README.md', ...readdirSync(join(root, 'docs')).map((f) => `docs/${f}`)].filter((f) =>
  f.endsWith('.md'),
);

interface DocCommand {
  /** `README.md:98` */
  where: string;
  command: string;
  /** The block's mark: `tutorial` or `tutorial-stack` for the tutorial's steps, else ''. */
  mark: string;
}

/** The commands of the sh blocks: continuation lines joined, `# comment` lines and trailing comments dropped. */
function docCommands(file: string): DocCommand[] {
  return docBlocks(root, file)
    .filter((block) => block.lang === 'sh')
    .flatMap((block) => blockCommands(block, file).map((c) => ({ ...c, mark: block.mark })));
}

/** The tests that run the tutorial's marked blocks, in a copy of the checkout and on the real stack. */
const TUTORIAL_TESTS: Record<string, string> = {
  tutorial: 'test/distribution-fork.e2e-spec.ts',
  'tutorial-stack': 'test/argo/real-node-tutorial.argo-spec.ts',
};

const all = DOCS.flatMap(docCommands);
const tutorial = all.filter((c) => c.mark in TUTORIAL_TESTS);
const commands = all.filter((c) => !(c.mark in TUTORIAL_TESTS));

/** How a documented command is covered. */
type Coverage = { run: string } | { test: string; contains: string } | { skip: string };

/** First match wins; every entry must match at least one documented command. */
const COVERAGE: Array<[RegExp, Coverage]> = [
  [
    /^kubectl /,
    { skip: 'needs a Kubernetes cluster (the manifests are checked by test/distribution-manifests)' },
  ],
  [
    /^helm install /,
    {
      test: 'test/argo/shared-agent-install.argo-spec.ts',
      contains: "run('template', 'shared-agent', CHART",
    },
  ],
  [
    /^docker build /,
    { skip: 'needs a container engine (test/image.e2e-spec.ts runs the image build when one is there)' },
  ],
  [/^docker push /, { skip: 'needs a container engine and a registry of yours' }],
  [
    /^npx @executor-plugins\/conformance .*python3 server\.py/,
    {
      skip: "a plugin in another language (the user's server.py); the same CLI runs in tools/conformance/test",
    },
  ],
  [/^npm test$/, { skip: 'this very run' }],
  [/^npm run test:argo$/, { test: '.ci/run', contains: 'npm run test:argo' }],
  [/^npm run test:moto$/, { test: '.ci/run', contains: 'npm run test:moto' }],
  [
    /^npm run argo -- (up|down|status|env|build)( --node real)?$|^eval "\$\(npm run -s argo -- env|^\$(KUBECTL|ARGO) /,
    {
      skip: 'the real Argo stack needs Go, root and the Go module proxy; npm run test:argo starts it, installs plugins and submits workflows the same way (test/argo)',
    },
  ],
  [
    /^npm run test:argo$|^npm run argo -- (up|down|status|env|build)( --node real)?$|^eval "\$\(npm run -s argo -- env|^\$(KUBECTL|ARGO) |^npm run conformance -- --agent real /,
    {
      skip: 'the real Argo stack needs Go, root and the Go module proxy; npm run test:argo starts it, installs plugins and submits workflows the same way (test/argo)',
    },
  ],
  [/^npm ci( && npm run demo)?$/, { test: 'test/distribution-fork.e2e-spec.ts', contains: 'scratchRepo(' }],
  [/^npm run build$/, { skip: 'npm test runs it before any test (package.json "test")' }],
  [/^npm run lint$/, { test: '.ci/run', contains: 'npm run lint' }],
  [
    /^npm run test:soak$/,
    { skip: 'about 16 minutes: the suites of test/reliability, which npm test runs at smaller sizes' },
  ],
  [
    /^npm run start:dev /,
    { skip: 'nest start --watch: an editor loop that never ends; npm run build is what ships' },
  ],
  [
    /^npm run bench$|^npm run bench -- --(write|quick)$|^npm run bench -- --baseline /,
    {
      skip: 'minutes of measurements (docs/performance.md); its options and helpers are tested (tools/cli/test/every-cli.e2e-spec.ts, bench/src/*.spec.ts)',
    },
  ],
  [/^npm run bench -- --help$/, { run: 'help' }],
  [
    /^npm run bench:agents$|^npm run bench:agents -- --pods /,
    {
      skip: 'two real Argo stacks (root) and up to an hour of measurements (docs/performance.md): the figures come from such a run',
    },
  ],
  [/^npm run bench:agents -- --help$/, { run: 'help' }],
  [
    /^node --experimental-vm-modules .* test\/reliability$/,
    { skip: 'the reliability suites: part of this very run' },
  ],
  [
    /^npm run packages$|^npm run new-plugin -- my-thing --upstream none --standalone \.\.\/my-thing --tarballs dist\/packages\/tarballs$|^cd \.\.\/my-thing && npm install && npm test$/,
    { test: 'test/standalone-plugin.e2e-spec.ts', contains: "'--standalone'" },
  ],
  [
    // The same commands as steps of the tutorial, which its test runs in a copy of the checkout.
    /^npm run (manifests:check|new-plugin -- my-thing --upstream http)$/,
    { test: 'test/distribution-fork.e2e-spec.ts', contains: 'tutorialSteps(' },
  ],
  [
    /^git clone https:\/\/github\.com\/<you>\/executor-plugins\.git$|^cd executor-plugins$/,
    {
      skip: "the reader's own fork; the tutorial's test works in a copy of this checkout (tools/cli/test/scratch-repo.ts)",
    },
  ],
  [/<[^>]+>|\[--?[a-z]/, { test: 'tools/cli/test/every-cli.e2e-spec.ts', contains: 'CASES' }],
  [
    /^npm run conformance -- --url http:\/\/127\.0\.0\.1:10420 /,
    { test: 'tools/conformance/test/repo-plugins.e2e-spec.ts', contains: 'passes every rule' },
  ],
  [/^printf |^npm run (events|stand-in|agent) |^curl |^ls \/tmp\/wfs|^PORT=/, { run: 'walk' }],
];

function coverageOf(command: string): Coverage | undefined {
  return COVERAGE.find(([re]) => re.test(command))?.[1];
}

describe('every command of README.md and docs/*.md', () => {
  it('is run here, covered by a named test, or left out with a reason', () => {
    expect(commands.length).toBeGreaterThan(30);
    expect(
      all.filter((c) => c.mark && !(c.mark in TUTORIAL_TESTS)).map((c) => `${c.where}: ${c.mark}`),
    ).toEqual([]);
    for (const mark of Object.keys(TUTORIAL_TESTS)) {
      expect({ mark, commands: tutorial.some((c) => c.mark === mark) }).toEqual({ mark, commands: true });
      expect(readFileSync(join(root, TUTORIAL_TESTS[mark]), 'utf8')).toContain('tutorialSteps(');
    }
    const uncovered = commands.filter((c) => !coverageOf(c.command)).map((c) => `${c.where}: ${c.command}`);
    expect(uncovered).toEqual([]);
    const unused = COVERAGE.filter(([re]) => !commands.some((c) => re.test(c.command))).map(([re]) =>
      String(re),
    );
    expect(unused).toEqual([]);
    for (const [, coverage] of COVERAGE)
      if ('test' in coverage)
        expect(readFileSync(join(root, coverage.test), 'utf8')).toContain(coverage.contains);
  });
});

// ---- the commands run here ----------------------------------------------------------------------------------

const scripts = (
  JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

let scratch: string;
let ports: Record<string, number>;
const background: ChildProcess[] = [];

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'docs-commands-'));
  ports = { '2746': await freePort(), '10421': await freePort() };
});
afterAll(() => {
  for (const child of background) if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
  rmSync(scratch, { recursive: true, force: true });
});

/** The command as this test runs it: npm scripts through node, repository paths absolute, /tmp and ports moved. */
function localise(command: string): string {
  // /tmp first: the repository itself may live under /tmp (a CI clone), and its paths must stay as they are.
  let out = command.replace(/(^|[\s=])\/tmp\//g, `$1${scratch}/`);
  out = out.replace(/\bnpm run ([\w:-]+)(?: --)?/g, (_, script: string) => {
    const node = scripts[script].split('&&').at(-1)!.trim();
    return node.replace(/^node (\S+)/, (_m, entry: string) => `"${process.execPath}" ${join(root, entry)}`);
  });
  out = out.replace(/(^|\s)(manifests|dist)\//g, `$1${root}/$2/`);
  out = out.replace(/\bnode --env-file/g, `"${process.execPath}" --env-file`);
  for (const [from, to] of Object.entries(ports))
    out = out.replace(new RegExp(`\\b${from}\\b`, 'g'), String(to));
  if (/run-cli\.mjs events serve /.test(out)) out += ` --port ${ports['2746']}`;
  return out;
}

function sh(command: string): { status: number | null; out: string } {
  const r = spawnSync('sh', ['-c', localise(command)], { cwd: scratch, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

/** Starts a long-running documented command and waits for `ready` in its output. */
async function start(command: string, ready: RegExp): Promise<string> {
  // Its own process group, so the end of the test stops the shell and everything it started.
  const child = spawn('sh', ['-c', localise(command)], {
    cwd: scratch,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  background.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command}: not ready in 30 s:\n${output}`)), 30_000);
    const onData = (chunk: string) => {
      output += chunk;
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve(output);
      }
    };
    // One decoder per stream: a character split between two reads stays whole.
    child.stdout!.setEncoding('utf8');
    child.stderr!.setEncoding('utf8');
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${command}: exited ${code}:\n${output}`)));
  });
}

/** The literal commands of `file` matching `re` (synopsis lines with <placeholders> or [options] left out). */
const find = (file: string, re: RegExp): DocCommand[] =>
  commands.filter(
    (c) => c.where.startsWith(`${file}:`) && re.test(c.command) && !/<[^>]+>|\[--?[a-z]/.test(c.command),
  );

function one(file: string, re: RegExp): DocCommand {
  const found = find(file, re);
  expect(found.map((c) => c.where)).toHaveLength(1);
  return found[0];
}

describe('the commands run here', () => {
  it('docs/events.md and docs/event-emitter.md: events test with the example event matches the example binding', () => {
    for (const file of ['docs/events.md', 'docs/event-emitter.md']) {
      expect(sh(one(file, /^printf .* > event\.json$/).command).status).toBe(0);
      const r = sh(one(file, /^npm run events -- test /).command);
      expect({ status: r.status, out: r.out }).toEqual({
        status: 0,
        out: expect.stringContaining('1 binding: 1 matched'),
      });
    }
  });

  it('docs/events.md: events serve, the curl event, and the workflow it writes', async () => {
    expect(sh(one('docs/events.md', /^printf .* > tokens\.yaml$/).command).status).toBe(0);
    await start(one('docs/events.md', /^npm run events -- serve /).command, /event endpoint on http/);
    const curl = sh(one('docs/events.md', /^curl /).command);
    expect(curl).toEqual({ status: 0, out: '{}' });
    const listed = one('docs/events.md', /^ls \/tmp\/wfs/);
    const expected = /# (\S+)/.exec(
      readFileSync(join(root, 'docs/events.md'), 'utf8').split('\n')[Number(listed.where.split(':')[1]) - 1],
    )![1];
    for (let i = 0; i < 50 && !existsSync(join(scratch, 'wfs/argo', expected)); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(sh(listed.command).out.trim()).toBe(expected);
  });

  it('README.md "Run a plugin by hand": stand-ins, the plugin, the local agent and curl', async () => {
    const walk = find('README.md', /^(npm run stand-in|printf|PORT=|npm run agent -- run manifests|curl )/);
    expect(walk.map((c) => c.command.split(' ')[0])).toEqual(['npm', 'printf', 'PORT=10421', 'npm', 'curl']);
    await start(walk[0].command, /Ctrl-C stops the stand-ins/);
    expect(sh(walk[1].command).status).toBe(0);
    await start(walk[2].command, /"msg":"listening"/);
    const agent = sh(`${walk[3].command} --time-scale 0.02`);
    expect({ status: agent.status, out: agent.out }).toEqual({
      status: 0,
      out: expect.stringContaining('result=SUCCESS'),
    });
    const curl = sh(walk[4].command);
    expect(curl.status).toBe(0);
    expect(JSON.parse(curl.out)).toMatchObject({ node: { phase: 'Running' }, requeue: expect.any(String) });
  });

  it('docs/performance.md: npm run bench -- --help', () => {
    const r = sh(one('docs/performance.md', /^npm run bench -- --help$/).command);
    expect(r.status).toBe(0);
    expect(r.out).toContain('--write');
  });
});
