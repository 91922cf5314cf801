import { join } from 'node:path';
import { GENERATED_BY } from './agent-rbac.js';
import type { ExecutorPlugin } from './executor-plugin.js';
import { marshalGoYaml } from './go-yaml.js';

export const SHARED_AGENT_DIR = 'shared-agent';
export const SHARED_AGENT_CHART = join('charts', 'shared-agent');
export const COLLECTION_ENV = 'collection-env.yaml';

/** The container of the shared agent's Deployment. */
export const SHARED_AGENT_CONTAINER = 'shared-agent';

/**
 * The settings of the plugins the shared agent hosts in process are the collection sidecar's own (same
 * variables, same Secrets): the collection's container env, written for the agent's Deployment as a kustomize
 * patch of manifests/shared-agent and as a file the Helm chart includes.
 */
export function sharedAgentFiles(
  root: string,
  collection: ExecutorPlugin,
): Array<{ path: string; content: string }> {
  const env = collection.spec.sidecar.container.env ?? [];
  const origin = [
    `# The settings of the plugins the shared agent hosts in process: the env of the collection's sidecar`,
    `# (manifests/${collection.metadata.name}/plugin.yaml, where each variable is explained), unchanged.`,
  ];
  return [
    {
      path: join(root, 'manifests', SHARED_AGENT_DIR, COLLECTION_ENV),
      content:
        GENERATED_BY +
        origin.join('\n') +
        '\n' +
        marshalGoYaml({
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: SHARED_AGENT_DIR },
          spec: { template: { spec: { containers: [{ name: SHARED_AGENT_CONTAINER, env }] } } },
        }),
    },
    {
      path: join(root, SHARED_AGENT_CHART, 'files', COLLECTION_ENV),
      content: GENERATED_BY + origin.join('\n') + '\n' + marshalGoYaml(env),
    },
  ];
}
