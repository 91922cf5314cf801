import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import { loadTokensFile } from './auth/tokens-file.js';
import { OperationQueue } from './dispatch/operation-queue.js';
import { EvaluatorPool } from './evaluation/evaluator-pool.js';
import { DEFAULT_EXPRESSION_LIMITS } from './evaluation/limits.js';
import { EventEndpointModule } from './event-endpoint.module.js';
import { jsonLines } from './logging/endpoint-logger.js';
import type { WorkflowObject } from './manifests/argo-objects.js';
import { loadManifestFolder, type SourcedObject } from './manifests/load-manifests.js';
import {
  ARGO_SERVER_MAX_BODY,
  DEFAULT_MAX_BODY,
  DEFAULT_RECEIVED_LOG_SIZE,
  SEED_DEFAULTS,
  type EventEndpointOptions,
  type ResolvedOptions,
} from './options.js';
import { EventIntakeService, type ReceivedEventRecord } from './intake/event-intake.service.js';
import { EventRecorder, type RecordedEvent } from './recorder/event-recorder.js';
import { WorkflowRunner, type WorkflowRun } from './submit/workflow-runner.js';
import { WorkflowStore } from './submit/workflow-store.js';
import { validateArgoObject } from '@app/local-agent/agent/load-workflow.js';

export interface EventEndpoint {
  url: string;
  port: number;
  /** The resolved settings (mode, queue size, workers...). */
  settings: Omit<ResolvedOptions, 'objects' | 'tokens' | 'log' | 'random' | 'run' | 'tls'> & {
    run: boolean;
    tls: boolean;
  };
  /** Objects of other kinds that were skipped while loading the folder. */
  skipped: string[];
  /** Submitted Workflows, in creation order. */
  workflows(namespace?: string): WorkflowObject[];
  /** Warning Events recorded for failing bindings. */
  events(): RecordedEvent[];
  /** Every event that reached the handler (after routing, body decoding and authentication), with its status. */
  received(): ReceivedEventRecord[];
  /** Finished local-agent runs (with `run`). */
  runs(): WorkflowRun[];
  /** Resolves when the queue is empty, no operation is running and (with `run`) every run has finished. */
  idle(): Promise<void>;
  /** Stops the queue workers taking events (queued events stay); for tests and demos of a full queue. */
  pauseWorkers(): void;
  resumeWorkers(): void;
  /** Stops accepting requests, drains the queue, waits for runs, closes. */
  close(): Promise<void>;
}

function resolve(options: EventEndpointOptions): ResolvedOptions & { skipped: string[] } {
  const objects: SourcedObject[] = [];
  const skipped: string[] = [];
  if (options.bindingsDir) {
    const folder = loadManifestFolder(options.bindingsDir);
    objects.push(...folder.objects);
    skipped.push(...folder.skipped);
  }
  (options.objects ?? []).forEach((object, i) => {
    validateArgoObject(object, `objects[${i}]`);
    objects.push({ object, source: `objects[${i}]` });
  });
  const tokens = options.tokens ?? (options.tokenFile ? loadTokensFile(options.tokenFile) : undefined);
  if (!tokens)
    throw new Error('a tokens file is required (--token-file): the endpoint always needs authorization');
  const count = (name: string, value: number | undefined, fallback: number, min: number) => {
    const v = value ?? fallback;
    if (!Number.isInteger(v) || v < min) throw new Error(`${name} must be an integer ≥ ${min}, got ${value}`);
    return v;
  };
  return {
    objects,
    skipped,
    tokens,
    host: options.host ?? '127.0.0.1',
    tls: options.tls,
    port: count('port', options.port, 0, 0),
    namespaceDefault: options.namespaceDefault ?? 'argo',
    asyncDispatch: options.asyncDispatch ?? SEED_DEFAULTS.asyncDispatch,
    queueSize: count('queue size', options.queueSize, SEED_DEFAULTS.queueSize, 0),
    workers: count('worker count', options.workers, SEED_DEFAULTS.workers, 1),
    instanceId: options.instanceId || undefined,
    outDir: options.outDir,
    run: options.run,
    dispatchDelayMs: count('dispatch delay', options.dispatchDelayMs, 0, 0),
    expressionLimits: {
      timeoutMs: count(
        'expression timeout',
        options.expressionTimeoutMs,
        DEFAULT_EXPRESSION_LIMITS.timeoutMs,
        1,
      ),
      heapMiB: count('expression heap', options.expressionHeapMiB, DEFAULT_EXPRESSION_LIMITS.heapMiB, 16),
    },
    maxBodyBytes: maxBody(options.maxBodyBytes),
    receivedLogSize: count('received log size', options.receivedLogSize, DEFAULT_RECEIVED_LOG_SIZE, 0),
    log: options.log ?? jsonLines,
    random: options.random ?? Math.random,
  };
}

function maxBody(value: number | undefined): number {
  const v = value ?? DEFAULT_MAX_BODY;
  if (!Number.isInteger(v) || v < 1 || v > ARGO_SERVER_MAX_BODY)
    throw new Error(
      `max body must be 1 byte to ${ARGO_SERVER_MAX_BODY} bytes (the real server's 100 MiB), got ${value}`,
    );
  return v;
}

/** Starts the local event endpoint (a Nest app on platform-express) and returns its handle. */
export async function startEventEndpoint(options: EventEndpointOptions): Promise<EventEndpoint> {
  const resolved = resolve(options);
  const app = await NestFactory.create<NestExpressApplication>(
    EventEndpointModule.register(resolved),
    new ExpressAdapter(),
    {
      bodyParser: false,
      logger: false,
      abortOnError: false,
      ...(resolved.tls && { httpsOptions: { cert: resolved.tls.cert, key: resolved.tls.key } }),
    },
  );
  app.disable('x-powered-by');
  await app.listen(resolved.port, resolved.host);
  const server = app.getHttpServer() as Server;
  const port = (server.address() as AddressInfo).port;
  const queue = app.get(OperationQueue, { strict: false });
  const runner = app.get(WorkflowRunner, { strict: false });
  const store = app.get(WorkflowStore, { strict: false });
  const recorder = app.get(EventRecorder, { strict: false });
  const intake = app.get(EventIntakeService, { strict: false });
  // The first evaluator starts once the caller has the endpoint (not before the start-up line), ahead of events.
  const evaluators = app.get(EvaluatorPool, { strict: false });
  setImmediate(() => evaluators.warm());
  const idle = async () => {
    await queue.idle();
    await runner.idle();
  };
  let closing: Promise<void> | undefined;
  const { objects: _o, tokens: _t, log: _l, random: _r, tls, run, skipped, ...settings } = resolved;
  return {
    url: `${tls ? 'https' : 'http'}://${resolved.host}:${port}`,
    port,
    settings: { ...settings, run: run !== undefined, tls: tls !== undefined },
    skipped,
    workflows: (namespace) => store.list(namespace),
    events: () => recorder.events(),
    received: () => intake.received(),
    runs: () => runner.runs(),
    idle,
    pauseWorkers: () => queue.pause(),
    resumeWorkers: () => queue.resume(),
    close: () =>
      (closing ??= (async () => {
        server.closeIdleConnections?.();
        const closed = new Promise<void>((done) => server.close(() => done()));
        await queue.close();
        await runner.idle();
        server.closeAllConnections?.();
        await closed;
        await app.close().catch(() => undefined);
      })()),
  };
}
