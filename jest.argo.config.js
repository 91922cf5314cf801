// npm run test:argo: the suites under test/argo, run against the real Argo stack (npm run argo -- up), which
// the global setup starts in a folder of its own and the teardown stops. Kept apart from npm test, which needs
// only Node.
import base from './jest.config.js';

/** @type {import('jest').Config} */
export default {
  ...base,
  roots: ['<rootDir>/test/argo'],
  testMatch: ['**/*.argo-spec.ts'],
  // The real node is opt-in (ARGO_NODE=real starts the first stack with up --node real).
  testPathIgnorePatterns: process.env.ARGO_NODE === 'real' ? [] : ['/real-node(-[a-z-]+)?\\.argo-spec\\.ts$'],
  globalSetup: '<rootDir>/test/argo/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/argo/support/global-teardown.ts',
  testTimeout: 15 * 60 * 1000,
  maxWorkers: 1,
  // One line per workflow comes from the suites themselves; jest adds one per file and its summary.
  verbose: false,
};
