// The scripted plugin as a sidecar (image executor-plugins.test/scripted-plugin, bundled into
// dist/test/scripted-plugin/main.js by the suite's setup): one JSON line per request on stdout.
import { startScriptedPlugin } from './server.js';

const plugin = await startScriptedPlugin({
  host: process.env.HOST ?? '127.0.0.1',
  port: Number(process.env.PORT ?? 4460),
  tokenFile: process.env.TOKEN_FILE ?? '/var/run/argo/token',
  onRequest: (request) => process.stdout.write(`${JSON.stringify(request)}\n`),
});
process.stdout.write(`${JSON.stringify({ msg: 'listening', port: plugin.port })}\n`);
process.once('SIGTERM', () => {
  void plugin.close().then(() => process.exit(0));
});
