import { randomInt } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ARGO_RPC_TIMING,
  PluginRpcClient,
  TokenFileSource,
  type PluginCaller,
  type RpcTiming,
} from '@app/argo-agent';
import type { ExternalPluginSpec } from '../config/external-plugins.js';

/** k8s.io/apimachinery/pkg/util/rand's alphabet: what Argo's `agent init` makes its 32-character tokens of. */
const TOKEN_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

interface External {
  spec: ExternalPluginSpec;
  token: TokenFileSource;
}

/**
 * The plugins offered each plugin template, in order: the collection's plugins in process, then the external
 * plugin servers. Argo's agent keeps a plugin's 404 (method not implemented) for the rest of its workflow, so
 * each workflow gets its own RPC clients; the token is read from `<dir>/<name>/token`, again when it changes.
 */
export class PluginSet {
  private readonly external: External[];

  constructor(
    private readonly inProcess: PluginCaller | undefined,
    specs: ExternalPluginSpec[],
    tokenDir: string,
    private readonly timing: RpcTiming = ARGO_RPC_TIMING,
  ) {
    this.external = specs.map((spec) => ({
      spec,
      token: new TokenFileSource(ensureToken(tokenDir, spec.name)),
    }));
  }

  get names(): string[] {
    return [...(this.inProcess ? [this.inProcess.name] : []), ...this.external.map((e) => e.spec.name)];
  }

  /** The callers for one workflow. */
  forWorkflow(): PluginCaller[] {
    const clients = this.external.map(
      ({ spec, token }) =>
        new PluginRpcClient(
          { name: spec.name, url: spec.url, token: token.current() },
          this.timing,
          Math.random,
          undefined,
          false,
        ),
    );
    return this.inProcess ? [this.inProcess, ...clients] : clients;
  }
}

/**
 * The token file of an external plugin. Missing, it is made as Argo's `agent init` makes it (32 random
 * characters, mode 0440, in a 0770 folder named after the plugin), for a plugin sidecar of the agent's own
 * pod that mounts the same folder; a token the admin provides (a mounted Secret) is used as it is.
 */
export function ensureToken(dir: string, name: string): string {
  const file = join(dir, name, 'token');
  if (existsSync(file)) return file;
  mkdirSync(join(dir, name), { recursive: true, mode: 0o770 });
  const token = Array.from({ length: 32 }, () => TOKEN_ALPHABET[randomInt(TOKEN_ALPHABET.length)]).join('');
  writeFileSync(file, token, { mode: 0o440 });
  return file;
}
