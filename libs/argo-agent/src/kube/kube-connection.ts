// Where the API server is and who we are to it, as client-go's clientcmd finds it: in a pod, the service
// account's files and KUBERNETES_SERVICE_HOST/PORT; elsewhere, a kubeconfig (KUBECONFIG, else ~/.kube/config).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { parse } from 'yaml';

export interface KubeConnection {
  /** `https://host:port` (or `http://` for a local proxy). */
  server: string;
  /** PEM of the CA that signed the API server's certificate; the system's CAs when absent. */
  ca?: string;
  /** A fixed bearer token. */
  token?: string;
  /** A file holding the bearer token, re-read as it changes (projected service-account tokens rotate). */
  tokenFile?: string;
  /** Client certificate and key (PEM), for kubeconfigs that authenticate with them. */
  cert?: string;
  key?: string;
  insecureSkipTlsVerify?: boolean;
  /** The name the server certificate must carry, when it is not the server's host. */
  tlsServerName?: string;
  /** The namespace of the kubeconfig's context, or the pod's own. */
  namespace?: string;
}

export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

export class KubeConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KubeConfigError';
  }
}

/** rest.InClusterConfig: the pod's service account and the `kubernetes` Service's address from the env. */
export function inClusterConnection(
  env: Record<string, string | undefined> = process.env,
  dir = SERVICE_ACCOUNT_DIR,
): KubeConnection {
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT;
  if (!host || !port)
    throw new KubeConfigError(
      'not in a cluster: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set (set KUBECONFIG to run outside one)',
    );
  const tokenFile = join(dir, 'token');
  if (!existsSync(tokenFile)) throw new KubeConfigError(`no service-account token at ${tokenFile}`);
  const caFile = join(dir, 'ca.crt');
  const namespaceFile = join(dir, 'namespace');
  return {
    server: `https://${host.includes(':') ? `[${host}]` : host}:${port}`,
    tokenFile,
    ca: existsSync(caFile) ? readFileSync(caFile, 'utf8') : undefined,
    namespace: existsSync(namespaceFile) ? readFileSync(namespaceFile, 'utf8').trim() : undefined,
  };
}

interface KubeconfigFile {
  'current-context'?: string;
  contexts?: Array<{ name: string; context?: { cluster?: string; user?: string; namespace?: string } }>;
  clusters?: Array<{
    name: string;
    cluster?: {
      server?: string;
      'certificate-authority'?: string;
      'certificate-authority-data'?: string;
      'insecure-skip-tls-verify'?: boolean;
      'tls-server-name'?: string;
    };
  }>;
  users?: Array<{
    name: string;
    user?: {
      token?: string;
      tokenFile?: string;
      'client-certificate'?: string;
      'client-certificate-data'?: string;
      'client-key'?: string;
      'client-key-data'?: string;
      exec?: unknown;
      'auth-provider'?: unknown;
      username?: string;
    };
  }>;
}

/** The connection of one context of a kubeconfig (its current context by default). */
export function kubeconfigConnection(path: string, contextName?: string): KubeConnection {
  if (!existsSync(path)) throw new KubeConfigError(`kubeconfig ${path}: no such file`);
  let config: KubeconfigFile;
  try {
    config = (parse(readFileSync(path, 'utf8')) ?? {}) as KubeconfigFile;
  } catch (err) {
    throw new KubeConfigError(`kubeconfig ${path}: ${(err as Error).message}`);
  }
  const fail = (what: string): never => {
    throw new KubeConfigError(`kubeconfig ${path}: ${what}`);
  };
  const name = contextName ?? config['current-context'] ?? fail('no current-context');
  const context = config.contexts?.find((c) => c.name === name)?.context ?? fail(`no context ${name}`);
  const cluster =
    config.clusters?.find((c) => c.name === context.cluster)?.cluster ??
    fail(`context ${name}: no cluster ${context.cluster}`);
  const user = config.users?.find((u) => u.name === context.user)?.user ?? {};
  if (user.exec || user['auth-provider'])
    fail(`user ${context.user}: exec and auth-provider credentials are not supported (use a token)`);
  const base = dirname(path);
  const file = (p: string) => readFileSync(isAbsolute(p) ? p : join(base, p), 'utf8');
  const data = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');
  const pick = (inline?: string, fromFile?: string) =>
    inline ? data(inline) : fromFile ? file(fromFile) : undefined;
  return {
    server: cluster.server ?? fail(`cluster ${context.cluster}: no server`),
    ca: pick(cluster['certificate-authority-data'], cluster['certificate-authority']),
    insecureSkipTlsVerify: cluster['insecure-skip-tls-verify'] === true,
    tlsServerName: cluster['tls-server-name'],
    token: user.token,
    tokenFile: user.tokenFile && (isAbsolute(user.tokenFile) ? user.tokenFile : join(base, user.tokenFile)),
    cert: pick(user['client-certificate-data'], user['client-certificate']),
    key: pick(user['client-key-data'], user['client-key']),
    namespace: context.namespace,
  };
}

/**
 * clientcmd's order: KUBECONFIG (its first file), else the pod's service account when in a cluster, else
 * ~/.kube/config.
 */
export function loadKubeConnection(env: Record<string, string | undefined> = process.env): KubeConnection {
  const kubeconfig = env.KUBECONFIG?.split(':').find(Boolean);
  if (kubeconfig) return kubeconfigConnection(kubeconfig);
  if (env.KUBERNETES_SERVICE_HOST) return inClusterConnection(env);
  const home = join(homedir(), '.kube/config');
  if (existsSync(home)) return kubeconfigConnection(home);
  throw new KubeConfigError('no kubeconfig: set KUBECONFIG, or run in a pod with a service account');
}

/**
 * A token file read again once a minute (client-go's cached file token source) or when its modification time
 * changes, so a rotated projected token is picked up without a restart.
 */
export class TokenFileSource {
  private token = '';
  private readAt = 0;
  private mtimeMs = -1;

  constructor(
    private readonly path: string,
    private readonly maxAgeMs = 60_000,
  ) {}

  current(): string {
    const now = Date.now();
    if (this.token && now - this.readAt < this.maxAgeMs) {
      // A cheap check between the minute's reads: a changed file is read now.
      try {
        if (statSync(this.path).mtimeMs === this.mtimeMs) return this.token;
      } catch {
        return this.token;
      }
    }
    return this.reload();
  }

  /** Reads the file now (after a 401: the token may have rotated since the last read). */
  reload(): string {
    try {
      this.mtimeMs = statSync(this.path).mtimeMs;
      this.token = readFileSync(this.path, 'utf8').trim();
      this.readAt = Date.now();
    } catch (err) {
      if (!this.token) throw new KubeConfigError(`token file ${this.path}: ${(err as Error).message}`);
    }
    return this.token;
  }
}
