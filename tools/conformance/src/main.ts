// The published command (`npx @executor-plugins/conformance ...`), bundled into dist/conformance.mjs.
import { PUBLISHED, runMain } from './cli.js';

await runMain(PUBLISHED);
