// The event emitter against the real argo server: the example workflow sends its event with a ServiceAccount
// token that has exactly the Role docs/event-emitter.md grants, the example WorkflowEventBinding submits the
// example WorkflowTemplate, and `npm run events -- test` (the binding tester) predicted, for the same event,
// that binding, that workflow name and those parameters. Each rule of the documented Role is needed.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { executionKey } from '@app/plugin-kit/ledger/execution-key.js';
import type { StackState } from '../../tools/argo-stack/src/stack.js';
import {
  create,
  examples,
  kubeClient,
  prepareNamespace,
  repoRoot,
  serviceAccountMay,
  stack,
  type ManifestDoc,
} from './support/cluster.js';
import { watchAgentPod } from './support/agent-pods.js';
import { apply, installPlugin, pluginManifest } from './support/plugins.js';
import { BINDING_LABEL, followWorkflow } from './support/runs.js';
import { EVENT_APP, argoServerEnv, documentedEventRole, serviceAccountToken } from './support/upstreams.js';

const NAMESPACE = 'ep-events';
const SENDER = { namespace: NAMESPACE, name: 'event-sender' };
const EXAMPLES = join(repoRoot, 'manifests', EVENT_APP, 'examples');

interface SubmittedWorkflow extends ManifestDoc {
  spec: { arguments?: { parameters?: unknown[] }; workflowTemplateRef?: { name: string } };
}

interface Prediction {
  bindings: Array<{
    name: string;
    outcome: string;
    workflow?: { name: string; template: string; labels: Record<string, string>; parameters: unknown[] };
  }>;
}

type EventBody = { payload: Record<string, string>; headers: Record<string, string> };
type SendEventTemplate = { name: string; plugin: Record<string, EventBody> };

/** The example's step as the agent sends it: its event body with the workflow's values in. */
function sentBody(doc: ManifestDoc, workflowName: string): { template: string; body: EventBody } {
  const spec = doc.spec as {
    arguments: { parameters: Array<{ name: string; value: string }> };
    templates: SendEventTemplate[];
  };
  const template = spec.templates.find((t) => t.plugin?.['workflow-event'])!;
  const values = new Map(spec.arguments.parameters.map((p) => [`workflow.parameters.${p.name}`, p.value]));
  values.set('workflow.name', workflowName);
  const text = JSON.stringify(template.plugin['workflow-event']).replace(
    /\{\{\s*([\w.-]+)\s*\}\}/g,
    (m, name: string) => values.get(name) ?? m,
  );
  return { template: template.name, body: JSON.parse(text) as EventBody };
}

/** `npm run events -- test` for one event, its JSON answer. */
function predict(event: EventBody, key: string): Promise<Prediction> {
  const dir = mkdtempSync(join(tmpdir(), 'argo-events-'));
  writeFileSync(join(dir, 'event.json'), JSON.stringify(event.payload));
  const headers = Object.entries({ ...event.headers, 'x-argo-plugin-key': key }).flatMap(([k, v]) => [
    '-H',
    `${k}: ${v}`,
  ]);
  const args = ['tools/run-cli.mjs', 'events', 'test', '--bindings', EXAMPLES, '--namespace', NAMESPACE];
  args.push('--payload', join(dir, 'event.json'), ...headers, '--output', 'json');
  return new Promise((resolve, reject) =>
    execFile('node', args, { cwd: repoRoot }, (err, stdout, stderr) => {
      rmSync(dir, { recursive: true, force: true });
      if (err) reject(new Error(`events test: ${stderr || err.message}`));
      else resolve(JSON.parse(stdout) as Prediction);
    }),
  );
}

describe('workflow events through the real argo server', () => {
  let state: StackState;

  beforeAll(async () => {
    state = stack();
    await prepareNamespace(state, NAMESPACE);
    await installPlugin(state, NAMESPACE, EVENT_APP, await argoServerEnv(state, NAMESPACE));
    await apply(
      state,
      NAMESPACE,
      examples(EVENT_APP)
        .map(({ doc }) => doc)
        .filter((doc) => doc.kind !== 'Workflow'),
    );
  });

  it('the binding submits the template with the parameters the binding tester predicted', async () => {
    const example = examples(EVENT_APP).find(({ doc }) => doc.kind === 'Workflow')!;
    const name = await create(state, NAMESPACE, example.doc);
    const pod = watchAgentPod(state, NAMESPACE, name);
    const run = await followWorkflow(
      state,
      NAMESPACE,
      'events',
      { what: example.file, doc: example.doc },
      name,
    );
    pod.stop();
    expect(run.phase).toBe('Succeeded');

    // The event as the plugin sent it: the example's body with the workflow's values, and its execution key
    // (the sidecar logs its first 16 characters, which the key worked out here must start with).
    const workflow = await kubeClient(state).get<ManifestDoc & { metadata: { uid: string } }>(
      `/apis/argoproj.io/v1alpha1/namespaces/${NAMESPACE}/workflows/${run.name}`,
    );
    const sent = sentBody(example.doc, run.name);
    const key = executionKey(
      {
        workflow: { metadata: { name: run.name, namespace: NAMESPACE, uid: workflow.metadata.uid } },
        template: { name: sent.template },
      } as never,
      sent.body,
      {},
    );
    const logged = /"key":"([0-9a-f]{16})"[^\n]*"msg":"event sent"/.exec(
      pod.container(pluginManifest(EVENT_APP).spec.sidecar.container.name).log,
    )?.[1];
    expect(key.startsWith(logged ?? '?')).toBe(true);

    const predicted = (await predict(sent.body, key)).bindings.filter((b) => b.outcome === 'matched');
    const real = (
      await kubeClient(state).get<{ items: SubmittedWorkflow[] }>(
        `/apis/argoproj.io/v1alpha1/namespaces/${NAMESPACE}/workflows?labelSelector=${encodeURIComponent(BINDING_LABEL)}`,
      )
    ).items;
    expect(real).toHaveLength(1);
    expect(real.map((wf) => wf.metadata.labels?.[BINDING_LABEL])).toEqual(predicted.map((b) => b.name));
    expect(real.map((wf) => wf.metadata.name)).toEqual(predicted.map((b) => b.workflow!.name));
    expect(real.map((wf) => wf.spec.arguments?.parameters)).toEqual(
      predicted.map((b) => b.workflow!.parameters),
    );
    expect(real.map((wf) => wf.spec.workflowTemplateRef?.name)).toEqual(
      predicted.map((b) => b.workflow!.template),
    );
    real.forEach((wf, i) => expect(wf.metadata.labels).toMatchObject(predicted[i].workflow!.labels));
  });

  describe('the documented Role is what the event path needs', () => {
    const role = documentedEventRole();
    const rules = role.rules as Array<{ resources: string[]; verbs: string[] }>;
    afterAll(async () => {
      // Back to the documented Role for any later run against this stack.
      await apply(state, NAMESPACE, [{ ...role, metadata: { name: role.metadata.name } }]);
    });

    it.each(rules.map((rule) => [`${rule.verbs.join(',')} ${rule.resources.join(',')}`, rule] as const))(
      'without %s the server refuses the event or cannot submit',
      async (_label, rule) => {
        await apply(state, NAMESPACE, [
          {
            ...role,
            metadata: { name: role.metadata.name },
            rules: rules.filter((r) => r !== rule),
          } as never,
        ]);
        // RBAC reaches the authorizer through a cache: wait until the account has lost the rule.
        const lost = {
          namespace: NAMESPACE,
          verb: rule.verbs[0],
          resource: rule.resources[0],
          group: 'argoproj.io',
        };
        for (let i = 0; i < 50 && (await serviceAccountMay(state, SENDER, lost)); i++)
          await new Promise((r) => setTimeout(r, 200));
        expect(await serviceAccountMay(state, SENDER, lost)).toBe(false);
        const before = await submittedCount(state);
        const token = await serviceAccountToken(state, NAMESPACE, 'event-sender.service-account-token');
        const answer = await fetch(
          `http://${state.hostAddr}:${state.ports.argoServer}/api/v1/events/${NAMESPACE}/`,
          {
            method: 'POST',
            headers: {
              Authorization: `Bearer ${token}`,
              'Content-Type': 'application/json',
              'X-Event-Type': 'build-finished',
              'X-Argo-Plugin-Key': `role-check-${rule.resources[0]}`,
            },
            body: JSON.stringify({ app: 'rbac-check', version: '0.0.1' }),
          },
        );
        expect(answer.status).not.toBe(200);
        expect(await answer.text()).toMatch(new RegExp(`${rule.resources[0]}.* is forbidden`));
        expect(await submittedCount(state)).toBe(before);
      },
    );
  });
});

async function submittedCount(state: StackState): Promise<number> {
  const list = await kubeClient(state).get<{ items: unknown[] }>(
    `/apis/argoproj.io/v1alpha1/namespaces/${NAMESPACE}/workflows?labelSelector=${encodeURIComponent(BINDING_LABEL)}`,
  );
  return list.items.length;
}
