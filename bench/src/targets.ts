import { spawnNode, type Spawned } from './process-control.js';
import type { StandIns } from './stand-ins.js';
import type { OwnTemplate } from './plan.js';

/** Something the benchmark starts as a process: the bare baseline or a built plugin. */
export interface Target {
  name: string;
  /** probe: the kit's probe plugin (no upstream), for the kit's own hot path. */
  kind: 'baseline' | 'plugin' | 'probe';
  entry: string;
  /** Sidecar env (stand-in URLs and credentials), without PORT/TOKEN_FILE which each run sets. */
  env: Record<string, string>;
  /** Node flags, as the manifest's container command gives them. */
  nodeArgs: string[];
  /** The manifest's limits.memory in MiB: the process runs in a memory cgroup of that size where one can be made. */
  memoryLimitMiB?: number;
  /** Bytes the image ships for it. */
  bytes: number;
  key: string;
  own?: OwnTemplate;
  /** Why the own template is not measured (no template, rejected body, ...). */
  ownProblem?: string;
  standIns?: StandIns;
}

export interface RunContext {
  token: string;
  tokenFile: string;
  logDir: string;
  /** The node binary (default: the one running the benchmark). */
  node: string;
}

/**
 * Starts one process of a target on `port`. `pod`: in a memory cgroup of the manifest's limit where one can be
 * made, so V8 sizes its heap as in the pod (memory figures); `plain`: no cgroup, for start-up times (joining a
 * cgroup v1 costs ~16 ms before node even runs, and the heap's sizing does not change how fast it starts).
 */
export function spawnTarget(
  target: Target,
  ctx: RunContext,
  port: number,
  logFile: string,
  launch: 'pod' | 'plain' = 'pod',
): Spawned {
  return spawnNode(
    target.entry,
    runEnv(target, ctx, port),
    logFile,
    target.nodeArgs,
    ctx.node,
    launch === 'pod' ? target.memoryLimitMiB : undefined,
  );
}

/** Env of one run of a target. */
export function runEnv(target: Target, ctx: RunContext, port: number): Record<string, string> {
  return { ...target.env, PORT: String(port), HOST: '127.0.0.1', TOKEN_FILE: ctx.tokenFile };
}
