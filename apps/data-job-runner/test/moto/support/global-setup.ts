// npm run test:moto: makes (or finds) moto's venv, starts moto_server and hands its URL to the suites
// (MOTO_URL); the teardown stops it. moto (PyPI moto[server]) is an independent implementation of the AWS APIs;
// its venv is made once per version in ~/.cache/executor-plugins/moto/<version>, outside the checkout.
// Jest loads this file without the suites' module mapping: it imports only node:*.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const MOTO_VERSION = '5.2.5';
/** The Python the venv is made with (MOTO_PYTHON to use another). */
const PYTHON = process.env.MOTO_PYTHON ?? 'python3.11';
const READY_TIMEOUT_MS = 30_000;
const INSTALL_TIMEOUT_MS = 10 * 60_000;

export interface MotoVenv {
  server: string;
  /** False when this call made the venv. */
  cached: boolean;
}

/**
 * The venv with moto[server]==MOTO_VERSION, made when missing; a half-made one (no `installed` mark) is made
 * again. One run makes it at a time (a `making` folder holds its pid); another waits for the mark.
 */
export function motoVenv(): MotoVenv {
  const dir = join(homedir(), '.cache/executor-plugins/moto', MOTO_VERSION);
  const venv = join(dir, 'venv');
  const server = join(venv, 'bin/moto_server');
  const mark = join(dir, 'installed');
  const making = join(dir, 'making');
  mkdirSync(dir, { recursive: true });
  for (const deadline = Date.now() + INSTALL_TIMEOUT_MS; ;) {
    if (existsSync(mark) && existsSync(server)) return { server, cached: true };
    if (takeLock(making)) break;
    if (Date.now() > deadline) throw new Error(`moto: ${making} still held after ${INSTALL_TIMEOUT_MS} ms`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
  }
  try {
    if (existsSync(mark) && existsSync(server)) return { server, cached: true };
    rmSync(venv, { recursive: true, force: true });
    const run = (cmd: string, args: string[]) =>
      execFileSync(cmd, args, { stdio: ['ignore', 'ignore', 'inherit'], timeout: INSTALL_TIMEOUT_MS });
    run(PYTHON, ['-m', 'venv', venv]);
    run(join(venv, 'bin/pip'), [
      'install',
      '--quiet',
      '--disable-pip-version-check',
      `moto[server]==${MOTO_VERSION}`,
    ]);
    writeFileSync(mark, `moto[server]==${MOTO_VERSION}\n`);
    return { server, cached: false };
  } finally {
    rmSync(making, { recursive: true, force: true });
  }
}

/** Takes the lock folder, or a stale one whose process is gone. */
function takeLock(lock: string): boolean {
  try {
    mkdirSync(lock);
  } catch {
    const holder = Number(readFileSafe(join(lock, 'pid')));
    // A lock without its pid yet is being taken right now, unless it is old.
    const young = Date.now() - (statSafe(lock) ?? 0) < 60_000;
    if (holder > 0 ? alive(holder) : young) return false;
    rmSync(lock, { recursive: true, force: true });
    return false;
  }
  writeFileSync(join(lock, 'pid'), String(process.pid));
  return true;
}

const readFileSafe = (path: string): string => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
};

const statSafe = (path: string): number | undefined => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
};

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function motoApi(url: string, body?: unknown): Promise<Response> {
  return fetch(`${url}/moto-api/config`, {
    method: body === undefined ? 'GET' : 'POST',
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(2000),
  });
}

export interface MotoServer {
  url: string;
  process: ChildProcess;
}

/**
 * Starts moto_server on a free loopback port and configures it: Batch runs its jobs without Docker, and Step
 * Functions executes the state machines (by default moto only records the executions).
 */
export async function startMotoServer(server: string): Promise<MotoServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(server, ['-H', '127.0.0.1', '-p', String(port)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8'); // one decoder for the stream: a character split between reads stays whole
  child.stderr!.on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`moto_server exited (${child.exitCode}): ${stderr}`);
    const ready = await motoApi(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(`moto_server did not answer on ${url} within ${READY_TIMEOUT_MS} ms: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  for (const config of [
    { batch: { use_docker: false } },
    { stepfunctions: { execute_state_machine: true } },
  ]) {
    const reply = await motoApi(url, config);
    if (!reply.ok) throw new Error(`moto: POST /moto-api/config ${JSON.stringify(config)} → ${reply.status}`);
  }
  return { url, process: child };
}

declare global {
  var motoServer: MotoServer | undefined;
}

export default async function globalSetup(): Promise<void> {
  const started = Date.now();
  const venv = motoVenv();
  const venvMs = Date.now() - started;
  const server = await startMotoServer(venv.server);
  globalThis.motoServer = server;
  process.env.MOTO_URL = server.url;
  process.stdout.write(
    `\nmoto ${MOTO_VERSION}: venv ${venv.cached ? 'cached' : 'created'} in ${(venvMs / 1000).toFixed(1)} s, ` +
      `moto_server on ${server.url} in ${((Date.now() - started - venvMs) / 1000).toFixed(1)} s\n`,
  );
}
