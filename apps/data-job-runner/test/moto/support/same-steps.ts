import { randomBytes } from 'node:crypto';
import { createMemoryLogger, Redactor } from '@app/plugin-kit';
import type { AwsConnection } from '../../../src/aws/aws-settings.js';
import type { JobRun, RunRef } from '../../../src/job/job-run.js';
import type { DataJobProvider, DataJobProviderModule } from '../../../src/providers/data-job-provider.js';

export const REGION = 'eu-west-1';
/** moto takes any keys; the stand-ins check the signature made with these. */
export const KEYS = {
  accessKeyId: 'AKIAMOTOCOMPARISON01',
  secretAccessKey: 'motoComparisonSecretKey0000000000000000',
};
const CALL_TIMEOUT_MS = 10_000;
const POLL_EVERY_MS = 250;
const MAX_POLLS = 80;
const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);

export function motoUrl(): string {
  const url = process.env.MOTO_URL;
  if (!url) throw new Error('MOTO_URL is not set: run these suites with npm run test:moto');
  return url;
}

/** The SDK client configuration that creates a backend's resources in moto (a state machine, a job queue, ...). */
export const motoClientConfig = () => ({ region: REGION, endpoint: motoUrl(), credentials: KEYS });

export const newKey = (): string => randomBytes(32).toString('hex');

/** Runs `task` `count` times, 10 at a time (what someone else does upstream, to fill a list's pages). */
export async function repeat(count: number, task: () => Promise<unknown>): Promise<void> {
  let left = count;
  const worker = async (): Promise<void> => {
    while (left-- > 0) await task();
  };
  await Promise.all(Array.from({ length: 10 }, worker));
}

/** A provider's own SDK client, reached to hook a recorder onto its middleware stack. */
interface WithSdkClient {
  aws: () => Promise<{ client: { middlewareStack: MiddlewareStack } }>;
}
interface MiddlewareStack {
  add(
    middleware: (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => unknown,
    options: { step: 'initialize'; name: string },
  ): void;
}

/**
 * One target (moto or our stand-in) driven through a backend's own provider code and its real SDK client, every
 * SDK command it sends written down by name (`StartExecution`, ...) in `calls`.
 */
export class Target<B> {
  readonly calls: string[] = [];

  constructor(
    readonly name: 'moto' | 'stand-in',
    private readonly module: DataJobProviderModule<AwsConnection>,
    private readonly endpoint: () => string,
  ) {}

  /** An SDK client configuration for this target, for what someone else does there (not recorded). */
  clientConfig() {
    return { region: REGION, endpoint: this.endpoint(), credentials: KEYS };
  }

  /** How many times the provider sent `operation` (the record keeps each call, `takeCalls` folds the repeats). */
  sent(operation: string): number {
    return this.calls.filter((call) => call === operation).length;
  }

  /** A new provider with no memory of earlier calls, as after a sidecar restart. */
  async provider(): Promise<DataJobProvider<B>> {
    const provider = this.module.create(
      { region: REGION, endpoint: this.endpoint(), keys: KEYS },
      { timeoutMs: CALL_TIMEOUT_MS, redactor: new Redactor() },
    ) as DataJobProvider<B>;
    const { client } = await (provider as unknown as WithSdkClient).aws();
    client.middlewareStack.add(
      (next, context) => (args: unknown) => {
        this.calls.push((context.commandName ?? '?').replace(/Command$/, ''));
        return next(args);
      },
      { step: 'initialize', name: 'motoComparisonRecorder' },
    );
    return provider;
  }

  start(provider: DataJobProvider<B>, block: B, key: string): Promise<JobRun> {
    return provider.start({
      block,
      key,
      workflow: { name: 'moto-comparison', namespace: 'argo', uid: key.slice(0, 8) },
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      logger: createMemoryLogger(new Redactor()).logger,
    });
  }

  poll(provider: DataJobProvider<B>, ref: RunRef, block: B, cancelRequested = false): Promise<JobRun> {
    return provider.poll({
      ref,
      block,
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      cancelRequested,
      declaredOutputs: new Set(),
    });
  }

  /** Polls until the run is terminal (or `until` holds), as the plugin does once per step. */
  async follow(
    provider: DataJobProvider<B>,
    ref: RunRef,
    block: B,
    options: { cancelRequested?: boolean; until?: (run: JobRun) => boolean } = {},
  ): Promise<JobRun> {
    const done = options.until ?? ((run: JobRun) => TERMINAL.has(run.state));
    for (let i = 0; i < MAX_POLLS; i++) {
      const run = await this.poll(provider, ref, block, options.cancelRequested);
      if (done(run)) return run;
      await new Promise((r) => setTimeout(r, POLL_EVERY_MS));
    }
    throw new Error(`${this.name}: run ${ref.runId} did not get there in ${MAX_POLLS} polls`);
  }

  /** The calls so far, a run of the same call (the polls) written once, and the record cleared. */
  takeCalls(): string[] {
    const taken = this.calls.filter((call, i, all) => call !== all[i - 1]);
    this.calls.length = 0;
    return taken;
  }
}

/** What the plugin makes of a run, without the ids and times that differ from one upstream to the other. */
export function outcome(run: JobRun): Record<string, unknown> {
  return {
    state: run.state,
    upstreamState: run.upstreamState,
    message: run.message,
    unknownState: run.unknownState,
    startedAt: typeof run.startedAt,
    finishedAt: typeof run.finishedAt,
    extras: Object.keys(run.extras ?? {}).sort(),
    url: run.url === undefined ? undefined : withoutIds(run.url, run.ref),
  };
}

/** The console link with the run's ids (its ref, and the last part of an ARN) written as their names. */
function withoutIds(url: string, ref: RunRef): string {
  const ids = Object.entries(ref).filter((e): e is [string, string] => typeof e[1] === 'string');
  ids.push(['runId.last', ref.runId.split(/[/:]/).pop()!]);
  return ids.reduce((text, [name, id]) => text.split(id).join(`<${name}>`), url);
}

/** How a start the upstream refuses fails: the operation, status and AWS error code, and its kind (permanent, transient). */
export async function refusal<B>(target: Target<B>, block: B): Promise<Record<string, unknown>> {
  target.takeCalls();
  const err = (await target
    .start(await target.provider(), block, newKey())
    .then(() => new Error('started'))
    .catch((e: unknown) => e)) as Error & { kind?: string };
  const [, operation, status, code] = /^\w+: (\w+) → (\d+) (\w+):/.exec(err.message) ?? [];
  return { operation, status, code, kind: err.kind, calls: target.takeCalls() };
}
