// The bare `node:http` baseline of the benchmark: the same contract work as a plugin sidecar, nothing more.
//   auth on every path before the body is read (token read from a file, constant-time compare of SHA-256
//   digests, re-read when the file changes), route check (404), body read with a limit (413), JSON parse
//   (400), own-key check (`template.plugin` has own property BENCH_KEY: Succeeded, else `{}`), JSON reply.
// No logging per call, no config validation, no ledger: this is the floor a plugin is compared with.
// Env: PORT (0 = free port), HOST, TOKEN_FILE, BENCH_KEY (default "baseline"), BODY_LIMIT.
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { readFileSync, statSync } from 'node:fs';

const started = performance.now();
const env = process.env;
const tokenFile = env.TOKEN_FILE ?? '/var/run/argo/token';
const ownKey = env.BENCH_KEY ?? 'baseline';
const bodyLimit = Number(env.BODY_LIMIT ?? 1024 * 1024);

const digest = (value) => createHash('sha256').update(value).digest();
let expected;
let tokenMtime = -1;
let checkedAt = 0;

function refreshToken() {
  checkedAt = Date.now();
  try {
    const mtime = statSync(tokenFile).mtimeMs;
    if (mtime === tokenMtime) return;
    const token = readFileSync(tokenFile, 'utf8').trim();
    expected = token === '' ? undefined : digest(token);
    tokenMtime = mtime;
  } catch {
    expected = undefined;
    tokenMtime = -1;
  }
}

function authorized(header) {
  if (Date.now() - checkedAt >= 250) refreshToken();
  if (!expected || typeof header !== 'string' || !header.startsWith('Bearer ')) return false;
  return timingSafeEqual(digest(header.slice(7)), expected);
}

function reply(res, status, type, text) {
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

const server = createServer({ keepAliveTimeout: 30_000 }, (req, res) => {
  if (!authorized(req.headers.authorization)) return reply(res, 403, 'text/plain', 'forbidden');
  if (req.method !== 'POST' || (req.url ?? '').split('?', 1)[0] !== '/api/v1/template.execute')
    return reply(res, 404, 'text/plain', 'not found');
  if (Number(req.headers['content-length']) > bodyLimit) return reply(res, 413, 'text/plain', 'too large');
  const chunks = [];
  let size = 0;
  req.on('data', (chunk) => {
    size += chunk.length;
    if (size > bodyLimit) {
      req.pause();
      reply(res, 413, 'text/plain', 'too large');
    } else chunks.push(chunk);
  });
  req.on('end', () => {
    if (size > bodyLimit) return;
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks, size).toString('utf8'));
    } catch {
      return reply(res, 400, 'text/plain', 'invalid JSON');
    }
    const plugin = body?.template?.plugin;
    const own = plugin !== null && typeof plugin === 'object' && Object.hasOwn(plugin, ownKey);
    const result = own ? { node: { phase: 'Succeeded', message: 'done' } } : {};
    reply(res, 200, 'application/json', JSON.stringify(result));
  });
});

refreshToken();
server.listen(Number(env.PORT ?? 0), env.HOST ?? '127.0.0.1', () => {
  const port = server.address().port;
  const startupMs = Math.round(performance.now() - started);
  process.stdout.write(JSON.stringify({ level: 'info', msg: 'listening', port, startupMs }) + '\n');
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
