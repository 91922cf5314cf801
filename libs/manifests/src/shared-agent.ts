import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { GENERATED_BY } from './agent-rbac.js';
import type { ExecutorPlugin } from './executor-plugin.js';
import { marshalGoYaml } from './go-yaml.js';
import { PLUGINS_CHART } from './plugins-chart.js';
import { parseCollectionImage } from './versioning.js';

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

/**
 * The shared agent's install files carry the collection's version as its plugins do: the Deployment's image tag
 * and the charts' (shared-agent, executor-plugins) version and appVersion. Answers one problem per file that does
 * not.
 */
export function sharedAgentVersionProblems(root: string, version: string): string[] {
  const problems: string[] = [];
  const deploymentFile = join('manifests', SHARED_AGENT_DIR, 'deployment.yaml');
  if (existsSync(join(root, deploymentFile))) {
    const deployment = parse(readFileSync(join(root, deploymentFile), 'utf8')) as {
      spec?: { template?: { spec?: { containers?: Array<{ image?: string }> } } };
    };
    const image = deployment.spec?.template?.spec?.containers?.[0]?.image ?? '';
    const parsed = parseCollectionImage(image);
    if (parsed?.app !== SHARED_AGENT_DIR || parsed.tag !== version)
      problems.push(
        `${deploymentFile}: image ${image || '(none)'} is not the shared agent's image of version ${version}`,
      );
  }
  for (const chartDir of [SHARED_AGENT_CHART, PLUGINS_CHART]) {
    const chartFile = join(chartDir, 'Chart.yaml');
    if (!existsSync(join(root, chartFile))) continue;
    const chart = parse(readFileSync(join(root, chartFile), 'utf8')) as {
      version?: string;
      appVersion?: string;
    };
    for (const field of ['version', 'appVersion'] as const)
      if (String(chart[field]) !== version)
        problems.push(
          `${chartFile}: ${field} ${chart[field]} differs from package.json's version ${version}`,
        );
  }
  return problems;
}
