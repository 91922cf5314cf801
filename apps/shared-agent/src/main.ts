import { runSidecar } from '@app/plugin-kit';
import { startSharedAgent } from './shared-agent.js';

void runSidecar('shared-agent', () => startSharedAgent());
