// The published command (`npx @executor-plugins/conformance ...`), bundled into dist/conformance.mjs.
import { report } from '../../cli/kit/args.js';
import { runCli } from './cli.js';
import { TOOL_NAME } from './version.js';

const argv = process.argv.slice(2);
const code = await runCli(argv).catch((err: unknown) =>
  report({ name: TOOL_NAME, help: `${TOOL_NAME} --help` }, err, argv.includes('--verbose')),
);
process.exitCode = code;
// Nothing should be left running; if something is, do not hang a CI job over it.
setTimeout(() => process.exit(code), 2000).unref();
