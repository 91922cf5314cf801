// The published command (`npx @executor-plugins/conformance ...`), bundled into dist/conformance.mjs.
import { runCli } from './cli.js';

const code = await runCli(process.argv.slice(2));
process.exitCode = code;
// Nothing should be left running; if something is, do not hang a CI job over it.
setTimeout(() => process.exit(code), 2000).unref();
