import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What bench/run.mjs built and hands over (bench/.work/plan.json). */
export interface BuildPlan {
  root: string;
  work: string;
  buildMs: number;
  apps: Array<{
    app: string;
    /** dist folder of the app (what the image ships). */
    dir: string;
    entry: string;
    bytes: number;
    /** Bundled stand-in host (apps/<app>/demo/upstreams.ts in a process of its own). */
    standIns: string;
    conformance?: string;
  }>;
  skipped: Array<{ app: string; reason: string }>;
  /** The kit's probe plugin (libs/plugin-kit/test/fixtures), bundled like an app. */
  probe?: { dir: string; entry: string; bytes: number };
}

export interface PollBody {
  name: string;
  config: unknown;
}

export interface OwnTemplate {
  key: string;
  config: unknown;
  /** Where the body came from (conformance.json or the bench's own template file). */
  source: string;
  polls: PollBody[];
}

export function readPlan(path: string): BuildPlan {
  return JSON.parse(readFileSync(path, 'utf8')) as BuildPlan;
}

function readJson(path: string): Record<string, unknown> | undefined {
  if (!existsSync(path)) return undefined;
  const value = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}

/**
 * The plugin's own template: apps/<app>/test/conformance.json (`{ key, config }`) when it exists, else
 * bench/templates/<app>.json; the bodies to poll always come from the latter.
 */
export function ownTemplate(root: string, app: string, conformance?: string): OwnTemplate | undefined {
  const local = readJson(join(root, 'bench/templates', `${app}.json`));
  const polls = Array.isArray(local?.polls) ? (local.polls as PollBody[]) : [];
  const fromConformance = conformance ? readJson(conformance) : undefined;
  if (typeof fromConformance?.key === 'string' && fromConformance.config !== undefined) {
    return {
      key: fromConformance.key,
      config: fromConformance.config,
      source: `apps/${app}/test/conformance.json`,
      polls,
    };
  }
  if (typeof local?.key === 'string' && local.config !== undefined) {
    return { key: local.key, config: local.config, source: `bench/templates/${app}.json`, polls };
  }
  return undefined;
}
