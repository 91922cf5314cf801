import { createHash, timingSafeEqual } from 'node:crypto';
import { readFile, readFileSync, stat, statSync, type Stats } from 'node:fs';
import { promisify } from 'node:util';
import type { PluginLogger } from '../logging/plugin-logger.js';
import type { Redactor } from '../logging/redactor.js';

export interface TokenGuardOptions {
  file: string;
  logger: PluginLogger;
  redactor: Redactor;
  /** How often the file is checked for changes (a stat, so cheap). */
  recheckMs?: number;
}

interface FileIdentity {
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

interface FileAccess {
  stat(file: string): Promise<Stats> | Stats;
  read(file: string): Promise<string> | string;
}
// The callback API, promisified: importing node:fs/promises costs ~1 ms of start-up for these two calls.
const readText = promisify(readFile);
const asynchronously: FileAccess = { stat: promisify(stat), read: (file) => readText(file, 'utf8') };
// At start-up the file (a few bytes on a local volume) is read synchronously: the first asynchronous file
// operation would start libuv's thread pool before the sidecar listens.
const synchronously: FileAccess = { stat: statSync, read: (file) => readFileSync(file, 'utf8') };

/**
 * The agent's bearer token check. The token is the content of the file the agent's init container writes
 * (trimmed). Comparison is constant-time over SHA-256 digests, so neither content nor length leaks. The file
 * is re-read when it changes (rotation without restart). A missing or empty file refuses every request.
 */
export class TokenGuard {
  private expected?: Buffer;
  private token?: string;
  private identity?: FileIdentity;
  private checkedAt = 0;
  private refreshing?: Promise<void>;
  private problem?: string;
  private readonly recheckMs: number;

  constructor(private readonly options: TokenGuardOptions) {
    this.recheckMs = options.recheckMs ?? 250;
  }

  /** True when a token is loaded (requests can be authorised). */
  get ready(): boolean {
    return this.expected !== undefined;
  }

  async init(): Promise<void> {
    await this.refresh(true, synchronously);
  }

  /** Whether the Authorization header carries the agent's token. Never throws. */
  async authorize(header: string | string[] | undefined): Promise<boolean> {
    if (Date.now() - this.checkedAt >= this.recheckMs) {
      this.refreshing ??= this.refresh(false, asynchronously).finally(() => (this.refreshing = undefined));
      await this.refreshing;
    }
    const expected = this.expected;
    if (!expected || typeof header !== 'string' || !header.startsWith('Bearer ')) return false;
    return timingSafeEqual(digest(header.slice('Bearer '.length)), expected);
  }

  private async refresh(initial: boolean, files: FileAccess): Promise<void> {
    this.checkedAt = Date.now();
    const { file, logger } = this.options;
    let identity: FileIdentity;
    try {
      const s = await files.stat(file);
      identity = { ino: s.ino, size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs };
    } catch {
      return this.unload(`token file ${file} is missing: every request is refused with 403`);
    }
    const same =
      this.identity &&
      this.identity.ino === identity.ino &&
      this.identity.size === identity.size &&
      this.identity.mtimeMs === identity.mtimeMs &&
      this.identity.ctimeMs === identity.ctimeMs;
    if (same && !initial) return;
    let token: string;
    try {
      token = (await files.read(file)).trim();
    } catch (err) {
      return this.unload(unreadableTokenProblem(file, err as NodeJS.ErrnoException));
    }
    if (token === '') return this.unload(`token file ${file} is empty: every request is refused with 403`);
    const rotated = this.token !== undefined && this.token !== token;
    this.options.redactor.replace(this.token, token);
    this.token = token;
    this.expected = digest(token);
    this.identity = identity;
    if (this.problem || rotated)
      logger.info(
        { tokenFile: file },
        rotated ? 'token file changed: using the new token' : 'token file loaded',
      );
    this.problem = undefined;
  }

  private unload(problem: string): void {
    this.expected = undefined;
    this.identity = undefined;
    if (this.problem !== problem) this.options.logger.error({ tokenFile: this.options.file }, problem);
    this.problem = problem;
  }
}

/**
 * The log line for a token file that exists but cannot be read. EACCES is the usual cause on a cluster: Argo's
 * agent writes each plugin's token mode 0440, owned by UID 8737 and group 0, so a sidecar whose user has another
 * group (runAsGroup, or a runAsUser the image's /etc/passwd gives a group, as nobody 65534 gets nogroup) cannot.
 */
export function unreadableTokenProblem(file: string, err: NodeJS.ErrnoException): string {
  const hint =
    err.code === 'EACCES'
      ? "; Argo's agent writes it mode 0440 for UID 8737 and group 0: run the sidecar in group 0 (no runAsGroup, and a runAsUser with no other group in the image, such as 65532)"
      : '';
  return `token file ${file} cannot be read (${err.message})${hint}: every request is refused with 403`;
}
