import type { AgentPlugin, WorkflowResult } from '@app/testing/agent/index.js';
import type { TokensConfig } from './auth/tokens-file.js';
import type { WorkflowObject } from './manifests/argo-objects.js';

/** The emulator's defaults (asynchronous, 64 queued events); flags switch to the real server's ways. */
export const SEED_DEFAULTS = { asyncDispatch: true, queueSize: 64, workers: 4 } as const;
/** The real Argo Server's defaults (`--event-async-dispatch=false`, 16 queued, 4 workers). */
export const ARGO_SERVER_DEFAULTS = { asyncDispatch: false, queueSize: 16, workers: 4 } as const;

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
  /** Emulator extra: extra time each binding's dispatch takes (a slow API server), for queue tests. */
  dispatchDelayMs?: number;
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
  log: (entry: LogEntry) => void;
  random: () => number;
}

export const ENDPOINT_OPTIONS = Symbol.for('events.endpoint-options');
