import { randomInt } from 'node:crypto';
import { EXECUTE_TEMPLATE_PATH } from '@app/contract';
import { looksSecret } from '@app/plugin-kit';
import { otherKeyMaterial } from './support/key-material.js';
import { validRequest } from './support/bad-requests.js';
import { sendRaw } from './support/raw-http.js';
import { report } from './support/report.js';
import { SecretSweep } from './support/secret-sweep.js';
import { launchBehindProxy, type ProxiedRun } from './support/side-effects.js';
import { coverageLine, discoverApps } from './support/targets.js';

/**
 * A credential echoed across every cut between an upstream's error body and what the workflow shows: the
 * upstream (a proxy in front of each plugin's counted stand-in) answers 400 with the credential the request
 * carried (its Authorization header, as sent: `Basic base64(user:token)`, `Bearer …`) at every offset around
 * each cut — the 64 KiB the error text is scanned over, behind whitespace that collapsing removes, and the
 * length the plugin shortens its message to, measured per plugin — as text and inside a JSON `message`. No
 * six characters in a row of the credential may appear in a node message or a log line.
 */
const SCAN_WINDOW = 64 * 1024;
const apps = discoverApps();
const targets = apps.targets.filter((t) => t.countUrl && t.countUpstreamEnv);
const sweep = new SecretSweep();
const lines: string[] = [];

async function message(proxied: ProxiedRun, body: unknown): Promise<string> {
  const { run } = proxied;
  const outcome = await sendRaw(
    run.url,
    {
      method: 'POST',
      path: EXECUTE_TEMPLATE_PATH,
      headers: { Authorization: `Bearer ${run.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(validRequest(run.target.key, body)),
    },
    { timeoutMs: 30_000 },
  );
  if (outcome.kind === 'error') return `(no reply: ${outcome.error})`;
  sweep.collect(`${run.target.name} reply`, outcome.text);
  const node = (JSON.parse(outcome.text || '{}') as { node?: { message?: string } }).node;
  return node?.message ?? '';
}

/** The first piece of 6 characters in a row of `credential` (its scheme word left out) found in `text`. */
function fragmentIn(text: string, credential: string): string | undefined {
  const secret = credential.replace(/^(Basic|Bearer|Token)\s+/i, '');
  for (let i = 0; i + 6 <= secret.length; i++)
    if (text.includes(secret.slice(i, i + 6))) return secret.slice(i, i + 6);
  return undefined;
}

/**
 * Every credential with its characters replaced by random ones of the same kind (digit, lower, upper case;
 * its scheme word and a short `xoxb-`-like prefix kept, so the plugin's format checks still pass): the upstream
 * is never reached, and a demo value made of words (`…argoexecutorplugins…`) would match the log's own words.
 */
function randomCredentials(env: Record<string, string>): Record<string, string> {
  const pick = (alphabet: string): string => alphabet[randomInt(alphabet.length)];
  const scramble = (text: string): string =>
    text
      .replace(/[0-9]/g, () => pick('0123456789'))
      .replace(/[a-z]/g, () => pick('abcdefghijklmnopqrstuvwxyz'))
      .replace(/[A-Z]/g, () => pick('ABCDEFGHIJKLMNOPQRSTUVWXYZ'));
  return Object.fromEntries(
    Object.entries(env).map(([k, v]) => {
      if (!looksSecret(k) || !v) return [k, v];
      const key = otherKeyMaterial(v);
      if (key) return [k, key];
      const kept = /^((Bearer|Token) )?([a-z]{2,5}-)?/.exec(v)![0];
      return [k, kept + scramble(v.slice(kept.length))];
    }),
  );
}

/** Offsets that put `length` characters just before, across and just after `edge`. */
const around = (edge: number, length: number): number[] =>
  Array.from({ length: length + 4 }, (_, i) => edge - length - 2 + i).filter((o) => o >= 0);

describe('mask before cut: a credential echoed across every cut of the error text', () => {
  afterAll(() => {
    report(coverageLine('mask-before-cut', { targets, skipped: apps.skipped }));
    lines.forEach((l) => report(`  ${l}`));
    report(`mask-before-cut: secrets: ${sweep.summary()}`);
    expect(sweep.check()).toEqual([]);
  });

  it.each(targets.map((t) => t.name))(
    '%s',
    async (name) => {
      const target = targets.find((t) => t.name === name)!;
      const proxied = await launchBehindProxy(
        target,
        { seed: 1, rate: 0, faults: [] },
        { sweep, env: { LOG_LEVEL: 'debug', RETRY_BUDGET: '0' }, rewriteEnv: randomCredentials },
      );
      const { run, proxy } = proxied;
      const leaks: string[] = [];
      let calls = 0;
      try {
        // What the plugin sends, as the proxy saw it.
        proxy.attack = { kind: 'echo-at', offset: 0, fill: '.' };
        await message(proxied, target.config);
        const credential = proxy.attacked.at(-1)?.credential || undefined;
        // The message length cut, in characters of the echoed body: how many of 5,000 dots survive.
        proxy.attack = { kind: 'echo-at', offset: 5000, fill: '.', json: true };
        const dots = (await message(proxied, target.config)).match(/\.+/g) ?? [];
        const kept = Math.max(0, ...dots.map((d) => d.length));
        const length = credential?.length ?? 0;
        // A plugin that never quotes an upstream's error text (Slack's, whose reads retry twice) gets every 8th
        // offset of the scan window: only its log lines could show the echo, and each call takes ~0.6 s.
        const stride = kept > 1 ? 1 : 8;
        const cases = [
          ...around(SCAN_WINDOW, length)
            .filter((_, i) => i % stride === 0)
            .flatMap((offset) => [false, true].map((json) => ({ offset, fill: ' \n', json }))),
          ...(stride === 1 ? around(kept, length) : []).map((offset) => ({ offset, fill: '.', json: true })),
        ];
        for (const c of cases) {
          proxy.attack = { kind: 'echo-at', status: 400, ...c };
          const text = await message(proxied, target.config);
          calls++;
          const fragment = credential ? fragmentIn(text, credential) : undefined;
          if (fragment)
            leaks.push(`offset ${c.offset} (${c.json ? 'JSON' : 'text'}): …${fragment}… in the node message`);
        }
        proxy.attack = undefined;
        const logs = run.proc.output();
        sweep.collect(`${name} logs`, logs);
        const inLogs = credential ? fragmentIn(logs, credential) : undefined;
        if (inLogs) leaks.push(`…${inLogs}… in the log`);
        const around64 = `around the ${SCAN_WINDOW / 1024} KiB scan window`;
        const where =
          stride > 1
            ? `${around64} (every ${stride}th offset: its messages quote no upstream text)`
            : `${around64} and its ${kept}-character message cut`;
        const what = credential
          ? `its ${credential.split(' ')[0]} credential (${credential.length} characters)`
          : 'a request without an Authorization header';
        lines.push(`${name}: ${calls} echoes of ${what} ${where}; ${leaks.length} leaks`);
        expect({ crashes: run.crashes, leaks }).toEqual({ crashes: [], leaks: [] });
      } finally {
        await run.close();
        await proxy.close();
      }
    },
    240_000,
  );
});
