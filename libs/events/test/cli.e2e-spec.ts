// `npm run events -- test|serve` as a process (node tools/run-cli.mjs events ...).
import { spawn, spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deployTemplate } from './runaway-bindings.js';
import { repoRoot as root, startServeProcess } from './serve-process.js';
let dir: string;
let bindings: string;

const BINDINGS = `${deployTemplate()}---
apiVersion: argoproj.io/v1alpha1
kind: WorkflowEventBinding
metadata:
  name: on-push
spec:
  event:
    selector: metadata["x-github-event"] == ["push"] && payload.ref == "main"
  submit:
    workflowTemplateRef:
      name: deploy
    arguments:
      parameters:
        - name: ref
          valueFrom:
            event: payload.ref
`;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'events-cli-'));
  bindings = join(dir, 'bindings');
  mkdirSync(bindings);
  writeFileSync(join(bindings, 'bindings.yaml'), BINDINGS);
  writeFileSync(join(dir, 'push.json'), '{"ref":"main"}');
  writeFileSync(join(dir, 'broken.json'), '{"ref":');
  writeFileSync(join(dir, 'tokens.yaml'), 'tokens:\n  - token: cli-token-123\n    subject: me\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (...args: string[]) =>
  spawnSync(process.execPath, ['tools/run-cli.mjs', 'events', ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
  });

describe('events test', () => {
  it('exit 0 when every binding evaluates; prints what would be submitted', () => {
    const r = cli(
      'test',
      '--bindings',
      bindings,
      '--payload',
      join(dir, 'push.json'),
      '-H',
      'X-GitHub-Event: push',
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('✔ on-push: matched');
    expect(r.stdout).toContain(
      'would submit Workflow deploy-<5 random characters> from WorkflowTemplate deploy',
    );
    expect(r.stdout).toContain('        ref: main');
  });

  it('exit 1 when a binding fails (no body → payload.ref is a compile error), with the hint', () => {
    const r = cli('test', '--bindings', bindings, '-H', 'X-GitHub-Event: push');
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('✖ on-push: error');
    expect(r.stdout).toContain('send {} instead of no body');
  });

  it('exit 2 for a body the server would refuse', () => {
    const r = cli('test', '--bindings', bindings, '--payload', join(dir, 'broken.json'));
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('the server would reply 400 {"code":3,"message":"unexpected EOF"}');
  });
});

describe('events serve', () => {
  it('serves events, writes workflows to --out, drains on SIGTERM', async () => {
    const out = join(dir, 'out');
    const serve = await startServeProcess([
      '--bindings',
      bindings,
      '--token-file',
      join(dir, 'tokens.yaml'),
      '--out',
      out,
      '--event-async-dispatch=false',
    ]);
    const { url } = serve;
    expect(serve.output()).toContain('sync (the real server default)');
    const res = await fetch(`${url}/api/v1/events/argo/`, {
      method: 'POST',
      headers: { Authorization: 'Bearer cli-token-123', 'X-GitHub-Event': 'push' },
      body: '{"ref":"main"}',
    });
    expect([res.status, await res.text()]).toEqual([200, '{}']);
    expect(await serve.stop()).toBe(0);
    expect(readdirSync(join(out, 'argo'))).toEqual([expect.stringMatching(/^deploy-[a-z0-9]{5}\.yaml$/)]);
    expect(serve.output()).toMatch(/INFO {2}submitted workflow argo\/deploy-[a-z0-9]{5}/);
  });

  it('stops when the shell that npm run started it from is killed (no orphan keeps the port)', async () => {
    // `npm run` runs `sh -c "node tools/run-cli.mjs events ..."`; a SIGTERM to npm ends that shell only.
    const command = `"${process.execPath}" tools/run-cli.mjs events serve --bindings ${bindings} --token-file ${join(dir, 'tokens.yaml')} --port 0; true`;
    const shell = spawn('sh', ['-c', command], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const url = await new Promise<string>((resolveUrl, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start-up line:\n${output}`)), 30_000);
      shell.stdout.setEncoding('utf8');
      shell.stdout.on('data', (c: string) => {
        output += c;
        const m = /event endpoint on (http:\/\/[\d.:]+)\/api/.exec(output);
        if (m) {
          clearTimeout(timer);
          resolveUrl(m[1]!);
        }
      });
    });
    shell.kill('SIGKILL');
    // The port refuses connections once the orphaned process has drained and exited.
    const { port } = new URL(url);
    const listening = () =>
      new Promise<boolean>((done) => {
        const socket = connect(Number(port), '127.0.0.1');
        socket.once('connect', () => done(socket.destroy() !== undefined));
        socket.once('error', () => done(false));
      });
    let reachable = true;
    for (let i = 0; i < 100 && reachable; i++) {
      await new Promise((r) => setTimeout(r, 100));
      reachable = await listening();
    }
    expect(reachable).toBe(false);
  });
});
