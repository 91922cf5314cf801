// Runs one app's demo stand-ins (apps/<app>/demo/upstreams.ts) in a process of their own, so the load
// generator and the upstream stand-ins do not share an event loop. Prints one JSON line `{ "env": {...} }`
// (the sidecar env pointing at the stand-ins), then serves until SIGTERM or until stdin closes.
import type { StartDemoUpstreams } from '@app/local-agent';

export async function hostStandIns(start: StartDemoUpstreams): Promise<void> {
  const upstreams = await start({ plugins: [], timeScale: 1 });
  process.stdout.write(JSON.stringify({ env: upstreams.env }) + '\n');
  let closing = false;
  const stop = (): void => {
    if (closing) return;
    closing = true;
    upstreams.close().finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.stdin.on('end', stop).resume();
}
