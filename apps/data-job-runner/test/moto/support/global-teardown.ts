import type { MotoServer } from './global-setup.js';

declare global {
  var motoServer: MotoServer | undefined;
}

export default async function globalTeardown(): Promise<void> {
  const server = globalThis.motoServer;
  if (!server || server.process.exitCode !== null) return;
  const exited = new Promise((resolve) => server.process.once('exit', resolve));
  server.process.kill('SIGTERM');
  await exited;
}
