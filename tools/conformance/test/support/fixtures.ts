import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { StandInServer } from '@app/local-agent/stand-in/index.js';

export const repoRoot = resolve(import.meta.dirname, '../../../..');
export const fixturesDir = resolve(import.meta.dirname, '../fixtures');

/** A temporary directory with an agent-like token file (32 characters of the k8s alphabet). */
export function tokenDir(): { dir: string; tokenFile: string; token: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-test-'));
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  const token = Array.from({ length: 32 }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join(
    '',
  );
  const tokenFile = join(dir, 'token');
  writeFileSync(tokenFile, token);
  return { dir, tokenFile, token, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/** The upstream whose `POST /effects` calls are the side effects the idempotency rule counts. */
export async function startEffectsUpstream(): Promise<{ upstream: StandInServer; countUrl: string }> {
  const upstream = new StandInServer('effects').route('POST', '/effects', () => ({ body: { ok: true } }));
  await upstream.start();
  return { upstream, countUrl: `${upstream.url}/__stand-in/count?method=POST&path=/effects` };
}

/** Bundles a small TypeScript entry (no decorators) into one .mjs file. */
export async function bundleScript(entry: string, outfile: string): Promise<string> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    tsconfig: join(repoRoot, 'tsconfig.json'),
    logLevel: 'warning',
  });
  return outfile;
}

type BundleEntry = (entry: string, outdir: string, name?: string) => Promise<unknown>;

/** Bundles a kit plugin entry exactly as tools/build.mjs bundles the apps; returns the main.js path. */
export async function bundlePlugin(entry: string, outdir: string): Promise<string> {
  const buildScript = pathToFileURL(join(repoRoot, 'tools/build.mjs')).href;
  const { bundleEntry } = (await import(buildScript)) as { bundleEntry: BundleEntry };
  await bundleEntry(entry, outdir, 'conformance-fixture');
  return join(outdir, 'main.js');
}
