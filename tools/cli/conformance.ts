// npm run conformance -- --url http://127.0.0.1:<port> --token-file <file> --key <plugin-key> [...]
// Checks an executor plugin against the contract Argo's agent enforces (tools/conformance, docs/conformance.md).
import { runCli } from '../conformance/src/cli.js';

const code = await runCli(process.argv.slice(2));
process.exitCode = code;
setTimeout(() => process.exit(code), 2000).unref();
