import type { WorkflowResult } from '@app/local-agent/agent/index.js';
import type { AgentPlugin } from '@app/argo-agent';
import type { TokensConfig } from './auth/tokens-file.js';
import type { ExpressionLimits } from './evaluation/limits.js';
import type { WorkflowObject } from './manifests/argo-objects.js';

/** The emulator's defaults (asynchronous, 64 queued events); flags switch to the real server's ways. */
export const SEED_DEFAULTS = { asyncDispatch: true, queueSize: 64, workers: 4 } as const;
/** The real Argo Server's defaults (`--event-async-dispatch=false`, 16 queued, 4 workers). */
export const ARGO_SERVER_DEFAULTS = { asyncDispatch: false, queueSize: 16, workers: 4 } as const;

/** The real server's only limit on an event body: the gateway's gRPC message size (GRPC_MESSAGE_SIZE, 100 MiB). */
export const ARGO_SERVER_MAX_BODY = 100 * 1024 * 1024;
/**
 * The emulator's default: 4 MiB (grpc-go's own default message size). An event whose payload becomes a
 * workflow parameter cannot be larger than a Kubernetes object (etcd takes 1.5 MiB per request) anyway, and a
 * local tool should not hold 100 MiB per request; `maxBodyBytes` (`--max-body`) goes up to the real 100 MiB.
 */
export const DEFAULT_MAX_BODY = 4 * 1024 * 1024;
/** The received-events log (an emulator extra) keeps the newest events, at most this many... */
export const DEFAULT_RECEIVED_LOG_SIZE = 1000;
/** ...and at most this many bytes of their bodies. */
export const RECEIVED_LOG_BYTES = 16 * 1024 * 1024;

export interface LogEntry {
  level: 'debug' | 'info' | 'warn' | 'error';
  msg: string;
  [field: string]: unknown;
}

export interface RunSettings {
  /** The plugins of the "agent pod"; a function is read at run time (the demo fills its list late). */
  plugins: AgentPlugin[] | (() => AgentPlugin[]);
  /** Multiplies requeues and retry waits of the local agent. */
  timeScale?: number;
  /** Called with each finished run. */
  onResult?(result: WorkflowResult, workflow: WorkflowObject): void;
}

export interface EventEndpointOptions {
  /** Folder of WorkflowEventBinding, WorkflowTemplate and ClusterWorkflowTemplate YAML (Workflows are ignored). */
  bindingsDir?: string;
  /** The same objects given directly (tests); added to the folder's. */
  objects?: Array<Record<string, unknown>>;
  /** Token → identity and permissions; or `tokenFile`. */
  tokens?: TokensConfig;
  tokenFile?: string;
  host?: string;
  /** Serve https with this PEM certificate and key, as the real server does by default (`--secure`). */
  tls?: { cert: string | Buffer; key: string | Buffer };
  /** 0 (default) picks a free port. */
  port?: number;
  /** Namespace of namespaced objects that do not name one (default `argo`). */
  namespaceDefault?: string;
  /** true (default, the seed): queue and reply 200 at once; false: the real server's synchronous dispatch. */
  asyncDispatch?: boolean;
  /** Events waiting in the queue before 503 (default 64). */
  queueSize?: number;
  /** Queue workers (default 4). */
  workers?: number;
  /** `--instanceid`: only bindings and templates with this controller-instanceid label are used. */
  instanceId?: string;
  /** Each submitted Workflow is written here as `<namespace>/<name>.yaml`. */
  outDir?: string;
  /** Hand submitted Workflows to the local agent. */
  run?: RunSettings;
  /** Largest event body in bytes (default 4 MiB; the real server: 100 MiB); larger is 429 `ResourceExhausted`. */
  maxBodyBytes?: number;
  /** Events kept for `received()` (newest first out last; default 1,000, and at most 16 MiB of bodies). */
  receivedLogSize?: number;
  /** Emulator extra: extra time each binding's dispatch takes (a slow API server), for queue tests. */
  dispatchDelayMs?: number;
  /**
   * Emulator bound (the real server has none): milliseconds one binding expression may take to compile and
   * run (default 5,000); past it the binding fails with an expression error and the evaluator is replaced.
   */
  expressionTimeoutMs?: number;
  /** Emulator bound: the heap of each evaluator process in MiB (default 256); past it the binding fails. */
  expressionHeapMiB?: number;
  /** Where log entries go (default: JSON lines on stdout). */
  log?: (entry: LogEntry) => void;
  /** Random source of the 5-character name suffix. */
  random?: () => number;
}

export interface ResolvedOptions {
  objects: Array<{ object: Record<string, unknown>; source: string }>;
  tokens: TokensConfig;
  host: string;
  tls?: { cert: string | Buffer; key: string | Buffer };
  port: number;
  namespaceDefault: string;
  asyncDispatch: boolean;
  queueSize: number;
  workers: number;
  instanceId?: string;
  outDir?: string;
  run?: RunSettings;
  dispatchDelayMs: number;
  expressionLimits: ExpressionLimits;
  maxBodyBytes: number;
  receivedLogSize: number;
  log: (entry: LogEntry) => void;
  random: () => number;
}

export const ENDPOINT_OPTIONS = Symbol.for('events.endpoint-options');
