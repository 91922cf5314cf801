// npm run test:moto: the AWS backends driven against moto (an independent implementation of the AWS APIs,
// PyPI moto[server]) and against our stand-ins with the same steps. Kept apart from npm test, which needs only
// Node: the global setup makes moto's Python venv (cached in ~/.cache/executor-plugins/moto) and starts moto_server.
import base from './jest.config.js';

/** @type {import('jest').Config} */
export default {
  ...base,
  roots: ['<rootDir>/apps/data-job-runner/test/moto'],
  testMatch: ['**/*.moto-spec.ts'],
  // The specs load a backend's provider module outside Nest, and that module brings its body block, whose
  // decorators read design metadata: loaded first, as the kit's plugin runtime loads it in a sidecar.
  setupFiles: ['reflect-metadata'],
  globalSetup: '<rootDir>/apps/data-job-runner/test/moto/support/global-setup.ts',
  globalTeardown: '<rootDir>/apps/data-job-runner/test/moto/support/global-teardown.ts',
  testTimeout: 60_000,
};
