import { marshalGoYaml } from './go-yaml.js';
import type { ExecutorPlugin } from './executor-plugin.js';

export const GENERATED_BY = '# This is an auto-generated file (npm run plugin:build). DO NOT EDIT\n';
const PART_OF = { 'app.kubernetes.io/part-of': 'executor-plugins' };

/**
 * What Argo's agent needs in the workflow's namespace to run plugin (and HTTP) templates: it watches the
 * workflow's WorkflowTaskSet and patches the node results into its status subresource (argo-workflows#13015:
 * without this the documented example fails). The agent runs as the workflow's service account.
 */
export const AGENT_RULES = [
  { apiGroups: ['argoproj.io'], resources: ['workflowtasksets'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: ['argoproj.io'], resources: ['workflowtasksets/status'], verbs: ['patch'] },
];

/** The service account Argo binds a sidecar to when it asks for a token (`<plugin>-executor-plugin`). */
export function pluginServiceAccountName(plugin: ExecutorPlugin): string {
  return `${plugin.metadata.name ?? ''}-executor-plugin`;
}

/**
 * With automountServiceAccountToken the controller mounts the token of `<plugin>-executor-plugin` from the
 * workflow's namespace: the SA's first secret, else the Secret named `<sa>.service-account-token`, which
 * Kubernetes ≥ 1.24 no longer creates by itself.
 */
export function pluginServiceAccountObjects(
  plugin: ExecutorPlugin,
  labels: Record<string, string>,
): object[] {
  if (plugin.spec.sidecar.automountServiceAccountToken !== true) return [];
  const sa = pluginServiceAccountName(plugin);
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: sa, labels } },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'kubernetes.io/service-account-token',
      metadata: {
        name: `${sa}.service-account-token`,
        labels,
        annotations: { 'kubernetes.io/service-account.name': sa },
      },
    },
  ];
}

/** Role + RoleBinding (to the namespace's `default` service account) granting the agent's rules. */
export function agentRoleObjects(name: string, labels: Record<string, string>): object[] {
  return [
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name, labels },
      rules: AGENT_RULES,
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name, labels },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
      // No namespace: a RoleBinding's ServiceAccount subject defaults to the binding's own namespace, so the
      // same file works with `kubectl apply -n <any namespace>`.
      subjects: [{ kind: 'ServiceAccount', name: 'default' }],
    },
  ];
}

export function yamlDocuments(objects: object[]): string {
  return objects.map((o) => marshalGoYaml(o)).join('---\n');
}

function bindingHint(role: string): string {
  return [
    `# The agent runs as the workflow's service account. This binds \`default\`; for workflows with their own`,
    '# spec.serviceAccountName, bind that one too:',
    `#   kubectl -n <namespace> create rolebinding ${role}-<sa> --role=${role} --serviceaccount=<namespace>:<sa>`,
  ].join('\n');
}

/** manifests/<plugin>/agent-rbac.yaml: what the plugin needs besides its ConfigMap in a namespace. */
export function pluginAgentRbacObjects(plugin: ExecutorPlugin, app: string): object[] {
  const labels = { ...PART_OF, 'app.kubernetes.io/name': app };
  const role = `${plugin.metadata.name ?? ''}-executor-plugin-agent`;
  return [...agentRoleObjects(role, labels), ...pluginServiceAccountObjects(plugin, labels)];
}

export function pluginAgentRbacFile(plugin: ExecutorPlugin, app: string): string {
  const role = `${plugin.metadata.name ?? ''}-executor-plugin-agent`;
  return [
    GENERATED_BY.trimEnd(),
    `# RBAC for the ${plugin.metadata.name ?? ''} executor plugin in the namespace it is applied to: Argo's agent pod`,
    "# watches the workflow's WorkflowTaskSet and patches the results into its status (argo-workflows#13015).",
    ...(plugin.spec.sidecar.automountServiceAccountToken === true
      ? [
          `# The sidecar asks for a Kubernetes token: its service account ${pluginServiceAccountName(plugin)} and`,
          '# token Secret are here too; grant that account only what the plugin needs.',
        ]
      : []),
    bindingHint(role),
    yamlDocuments(pluginAgentRbacObjects(plugin, app)),
  ].join('\n');
}

/** manifests/install/workflow-namespace/agent-rbac.yaml: the same for every plugin of an install namespace. */
export function workflowNamespaceRbacFile(plugins: ExecutorPlugin[]): string {
  const role = 'executor-plugins-agent';
  const labels = { ...PART_OF };
  const accounts = plugins.flatMap((p) => pluginServiceAccountObjects(p, labels));
  return [
    GENERATED_BY.trimEnd(),
    "# Apply to every namespace whose workflows use plugins installed in Argo's installation namespace: the",
    "# agent pod runs in the workflow's namespace and needs these rights there (argo-workflows#13015).",
    bindingHint(role),
    yamlDocuments([...agentRoleObjects(role, labels), ...accounts]),
  ].join('\n');
}
