// docs/install.md, section 2, followed in a fresh namespace on the real node: nothing but what the page lists
// (the plugin's Secret, its ConfigMap and agent RBAC by `kubectl apply -k`, the service account's token Secret
// and the executor's rights, each read from the page), then the page's own check workflow, which must succeed.
// The one addition is the Slack stand-in's URL as the sidecar's SLACK_API_URL, as an administrator sets a setting.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parseAllDocuments } from 'yaml';
import { startSlackDemoWorkspace, type SlackDemoWorkspace } from '../../apps/chat-notifier/demo/upstreams.js';
import type { StackState } from '../../tools/argo-stack/src/stack.js';
import {
  create,
  kubectlAsync,
  repoRoot,
  realNodeStack,
  waitForWorkflow,
  type ManifestDoc,
} from './support/cluster.js';
import { apply, installPlugin } from './support/plugins.js';
import { standInsOnStack } from './support/upstreams.js';

const PAGE = 'docs/install.md';
const APP = 'chat-notifier';

/** The text of section 2 of the page, up to the next section. */
function namespaceInstall(): string {
  const text = readFileSync(join(repoRoot, PAGE), 'utf8');
  const from = text.indexOf('## 2. Namespace install');
  if (from < 0) throw new Error(`${PAGE}: no "## 2. Namespace install"`);
  return text.slice(from, text.indexOf('\n## ', from + 1));
}

/** The objects of the YAML block that follows `marker` in section 2. */
function documentedObjects(marker: string): ManifestDoc[] {
  const section = namespaceInstall();
  const at = section.indexOf(marker);
  const block = at < 0 ? undefined : /^( *)```yaml\n([\s\S]*?)^ *```/m.exec(section.slice(at));
  if (!block) throw new Error(`${PAGE}: no YAML block after "${marker}"`);
  return parseAllDocuments(block[2].replace(new RegExp(`^${block[1]}`, 'gm'), '')).map(
    (d) => d.toJS() as ManifestDoc,
  );
}

describe('docs/install.md followed in a fresh namespace on the real node', () => {
  let state: StackState;
  let slack: SlackDemoWorkspace;
  const namespace = `ep-install-${Date.now().toString(36)}`;

  beforeAll(async () => {
    state = realNodeStack();
    standInsOnStack(state);
    slack = await startSlackDemoWorkspace();
  });
  afterAll(() => slack?.close());

  it("runs the page's check workflow to Succeeded with nothing but what the page lists", async () => {
    await kubectlAsync(state, ['create', 'namespace', namespace]);
    // Items 1–3: the Secret (`kubectl create secret generic ... --from-literal=bot-token=...`), the ConfigMap
    // and the agent RBAC (`kubectl apply -k manifests/chat-notifier`).
    const section = namespaceInstall();
    expect(section).toContain(
      `kubectl -n <namespace> create secret generic ${APP}-executor-plugin --from-literal=bot-token=<xoxb-...>`,
    );
    expect(section).toContain(`kubectl apply -n <namespace> -k manifests/${APP}`);
    await installPlugin(state, namespace, APP, slack.env);
    // Items 4 and 5, read from the page.
    await apply(state, namespace, documentedObjects('4. **A token Secret'));
    await apply(state, namespace, documentedObjects("5. **The executor's rights"));
    // The page's check.
    const check = /kubectl create -n <namespace> -f (\S+)/.exec(section)?.[1];
    expect(check).toBe(`manifests/${APP}/examples/notify-on-start.yaml`);
    const [doc] = parseAllDocuments(readFileSync(join(repoRoot, check!), 'utf8')).map(
      (d) => d.toJS() as ManifestDoc,
    );
    const name = await create(state, namespace, doc!);
    const outcome = await waitForWorkflow(state, namespace, name, 5 * 60_000);
    const failed = Object.values(outcome.nodes)
      .filter((n) => n.phase !== 'Succeeded')
      .map((n) => `${n.displayName}: ${n.phase} ${n.message ?? ''}`);
    expect({ phase: outcome.phase, failed }).toEqual({ phase: 'Succeeded', failed: [] });
    expect(slack.builds.messages.map((m) => m.text)).toEqual([
      expect.stringContaining(`started: *${name}* in \`${namespace}\``),
    ]);
    await kubectlAsync(state, ['delete', 'namespace', namespace, '--wait=false']);
  });
});
