import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import {
  startPluginProcess,
  type DemoContext,
  type DemoUpstreams,
  type PluginProcess,
} from '@app/local-agent';
import { type AgentPlugin } from '@app/argo-agent';
import type { SecretSweep } from './secret-sweep.js';
import type { PluginTarget } from './targets.js';

export interface LaunchOptions {
  sweep: SecretSweep;
  /** Sidecar env on top of the demo env (CALL_DEADLINE, LOG_LEVEL, ...). */
  env?: Record<string, string>;
  /** The demo's time scale (for stand-ins that run workflows themselves). */
  timeScale?: number;
  /** Rewrites the demo env before the plugin sees it (e.g. to put a fault proxy in front of an upstream). */
  rewriteEnv?: (env: Record<string, string>) => Promise<Record<string, string>> | Record<string, string>;
}

/** A built plugin running as a process against its demo stand-ins, as its sidecar would in a pod. */
export interface PluginRun {
  target: PluginTarget;
  url: string;
  port: number;
  token: string;
  tokenFile: string;
  /** The plugin as the local agent sees it (url and token follow restarts and rotations). */
  agentPlugin: AgentPlugin;
  proc: PluginProcess;
  upstreams: DemoUpstreams;
  /** The env the sidecar was started with. */
  env: Record<string, string>;
  /** The side-effect counter of conformance.json, or undefined when the target has none. */
  count(): Promise<number | undefined>;
  /** Resident set size of the plugin process, and its peak (VmHWM), in MB; NaN once it has exited. */
  memory(): { rssMb: number; peakMb: number };
  /** Exits nobody asked for (crash, OOM), each with the end of the process output. */
  crashes: string[];
  /** CPU time (user + system) the current plugin process has used, in seconds. */
  cpuSeconds(): number;
  /** Writes a new agent token into the token file. */
  rotateToken(next: string): void;
  /** SIGKILL (no drain, no goodbye), then a new process on the same port with the same env and token. */
  killAndRestart(onKilled?: () => Promise<void> | void): Promise<void>;
  close(): Promise<void>;
}

/** An env URL as a URL: `host:port` values (like ARGO_SERVER) are taken as http. */
export function asUrl(value: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
}

export function agentToken(): string {
  return randomBytes(24).toString('base64url');
}

export async function launch(target: PluginTarget, options: LaunchOptions): Promise<PluginRun> {
  const dir = mkdtempSync(join(tmpdir(), `reliability-${target.name}-`));
  const tokenFile = join(dir, 'token');
  // A copy of the bundle, as the image ships it: a rebuild of dist/ meanwhile cannot pull chunks from under it.
  cpSync(dirname(target.entry), join(dir, 'app'), { recursive: true });
  const entry = join(dir, 'app', basename(target.entry));
  let token = agentToken();
  writeFileSync(tokenFile, token);
  const context: DemoContext = { plugins: [], timeScale: options.timeScale ?? 0.01 };
  const upstreams = await target.startUpstreams(context);
  const demoEnv = options.rewriteEnv ? await options.rewriteEnv({ ...upstreams.env }) : upstreams.env;
  const env: Record<string, string> = {
    LOG_LEVEL: 'info',
    ...demoEnv,
    ...target.env,
    ...options.env,
    TOKEN_FILE: tokenFile,
    HOST: '127.0.0.1',
  };
  options.sweep.addEnv({ ...env, ...upstreams.env });
  options.sweep.add('agent token', token);

  const crashes: string[] = [];
  let stopping = false;
  const start = async (port: number): Promise<PluginProcess> => {
    const p = await startPluginProcess(
      target.name,
      entry,
      { ...env, PORT: String(port) },
      // RELIABILITY_NODE_ARGS adds flags for a diagnosis, e.g. --heapsnapshot-near-heap-limit=1 --diagnostic-dir=/tmp/x
      {
        cwd: dir,
        memoryLimitMiB: target.memoryLimitMiB,
        nodeArgs: [
          ...target.nodeArgs,
          ...(process.env.RELIABILITY_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
        ],
      },
    );
    p.child.once('exit', (code, signal) => {
      if (!stopping)
        crashes.push(`exit ${code ?? signal}: ${p.output().split('\n').slice(-15).join('\n').slice(-3000)}`);
    });
    return p;
  };
  let proc: PluginProcess;
  try {
    proc = await start(0);
  } catch (err) {
    await upstreams.close();
    throw err;
  }
  const incarnations: PluginProcess[] = [proc];
  const agentPlugin: AgentPlugin = { name: target.key, url: proc.url, token };
  context.plugins.push(agentPlugin);
  const countUrl =
    target.countUrl && target.countUpstreamEnv
      ? new URL(target.countUrl, asUrl(upstreams.env[target.countUpstreamEnv])).href
      : undefined;

  const run: PluginRun = {
    target,
    url: proc.url,
    port: proc.port,
    get token() {
      return token;
    },
    tokenFile,
    agentPlugin,
    get proc() {
      return proc;
    },
    upstreams,
    env,
    async count() {
      if (!countUrl) return undefined;
      const authorization = target.countAuthorizationEnv && upstreams.env[target.countAuthorizationEnv];
      const res = await fetch(countUrl, authorization ? { headers: { Authorization: authorization } } : {});
      const body = (await res.json()) as { count?: unknown };
      if (typeof body.count !== 'number') throw new Error(`${countUrl} answered ${JSON.stringify(body)}`);
      return body.count;
    },
    memory() {
      // A process that is gone (a crash the suite reports) has no figures.
      if (proc.child.exitCode !== null || proc.child.signalCode !== null) return { rssMb: NaN, peakMb: NaN };
      const status = readFileSync(`/proc/${proc.child.pid}/status`, 'utf8');
      const kb = (field: string): number =>
        Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
      return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
    },
    cpuSeconds() {
      // Fields 14 and 15 of /proc/<pid>/stat, after the parenthesised command name, in clock ticks (100 Hz).
      const stat = readFileSync(`/proc/${proc.child.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100;
    },
    rotateToken(next) {
      options.sweep.add('rotated agent token', next);
      writeFileSync(tokenFile, next);
      token = next;
      agentPlugin.token = next;
    },
    crashes,
    async killAndRestart(onKilled) {
      const exited = new Promise((resolve) => proc.child.once('exit', resolve));
      stopping = true;
      proc.child.kill('SIGKILL');
      await exited;
      stopping = false;
      await onKilled?.();
      proc = await start(run.port);
      incarnations.push(proc);
    },
    async close() {
      stopping = true;
      await proc.stop(10_000).catch(() => proc.child.kill('SIGKILL'));
      await upstreams.close();
      incarnations.forEach((p, i) =>
        options.sweep.collect(`${target.name} log (process ${i + 1})`, p.output()),
      );
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return run;
}
