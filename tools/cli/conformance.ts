// npm run conformance -- --url http://127.0.0.1:<port> --token-file <file> --key <plugin-key> [...]
// Checks an executor plugin against the contract Argo's agent enforces (tools/conformance, docs/conformance.md).
import { CHECKOUT, runMain } from '../conformance/src/cli.js';

await runMain(CHECKOUT);
