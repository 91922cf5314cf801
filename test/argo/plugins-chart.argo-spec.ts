// charts/executor-plugins under the real helm (built from tools/argo-stack/go/helm): linted, rendered into the
// ConfigMaps `npm run plugin:build` writes for the same settings (the manifests' own, and a plugin.yaml changed
// as the values change it), installed into a fresh namespace of the stack where one example of each plugin runs
// to its end, upgraded with a changed setting that the next workflow sees, and uninstalled without a trace.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parse, parseAllDocuments, parseDocument, stringify, type YAMLMap, type YAMLSeq } from 'yaml';
import { fromConfigMap } from '@app/manifests';
import { ensureBinarySet } from '../../tools/argo-stack/src/binaries.js';
import type { StackState } from '../../tools/argo-stack/src/stack.js';
import { examples, kubectl, repoRoot, stack, type ManifestDoc } from './support/cluster.js';
import { apply, pluginApps, pluginManifest, plainSettings, settingsObjects } from './support/plugins.js';
import { EXPECT_ANNOTATION, runWorkflow } from './support/runs.js';
import { appEnv, standInsOnStack, startStandIns } from './support/upstreams.js';

const CHART = join(repoRoot, 'charts/executor-plugins');
const NAMESPACE = 'ep-chart';
const RELEASE = 'plugins';
const apps = pluginApps();
/** One example per plugin, the one docs/install.md checks with for the chat notifier. */
const EXAMPLE: Record<string, string> = {
  'build-trigger': 'jenkins-build.yaml',
  'chat-notifier': 'notify-on-start.yaml',
  'data-job-runner': 'databricks-job.yaml',
  'event-emitter': 'emit-build-finished.yaml',
};

interface Doc {
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  data?: Record<string, string>;
  rules?: unknown[];
}

const docs = (text: string) =>
  parseAllDocuments(text)
    .map((d) => d.toJS() as Doc)
    .filter(Boolean);
const isPluginConfigMap = (d: Doc) =>
  d.kind === 'ConfigMap' && d.metadata.labels?.['workflows.argoproj.io/configmap-type'] === 'ExecutorPlugin';
const CHART_LABELS = /^(app\.kubernetes\.io\/|helm\.sh\/)/;

/** The ExecutorPlugin the controller reads from a ConfigMap, the chart's own labels aside. */
function plugin(cm: Doc) {
  const labels = Object.fromEntries(
    Object.entries(cm.metadata.labels ?? {}).filter(([k]) => !CHART_LABELS.test(k)),
  );
  return fromConfigMap({ ...cm, metadata: { name: cm.metadata.name, labels } });
}

const generatedConfigMap = (dir: string, app: string) =>
  docs(readFileSync(join(dir, `${app}-executor-plugin-configmap.yaml`), 'utf8'))[0];

describe('the plugins chart under the real helm and Argo', () => {
  let state: StackState;
  let helm = '';
  const home = mkdtempSync(join(tmpdir(), 'plugins-chart-'));
  const run = (...args: string[]) =>
    execFileSync(helm, args, {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        KUBECONFIG: join(state.dir, 'kubeconfig'),
        HELM_CACHE_HOME: join(home, 'cache'),
        HELM_CONFIG_HOME: join(home, 'config'),
        HELM_DATA_HOME: join(home, 'data'),
      },
    });
  const valuesFile = (name: string, values: unknown) => {
    const path = join(home, `${name}.yaml`);
    writeFileSync(path, stringify(values));
    return path;
  };
  const render = (...args: string[]) => docs(run('template', RELEASE, CHART, '-n', NAMESPACE, ...args));

  beforeAll(async () => {
    state = stack();
    standInsOnStack(state);
    helm = join(await ensureBinarySet(repoRoot, 'helm', (line) => console.error(line)), 'helm');
  }, 60 * 60_000);
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('passes helm lint --strict with its defaults, the collection, and several namespaces and accounts', () => {
    for (const args of [
      [],
      ['-f', valuesFile('collection', { plugins: collectionOnly() })],
      [
        '--set',
        'namespaces={team-a,team-b}',
        '--set',
        'rbac.serviceAccounts={default,ci}',
        '--set',
        'rbac.tokenSecrets=true',
        '--set',
        'image.pullPolicy=IfNotPresent',
      ],
    ])
      expect(run('lint', '--strict', CHART, ...args)).toContain('1 chart(s) linted, 0 chart(s) failed');
  });

  it('renders by default the ConfigMaps of manifests/, and with the collection its ConfigMap alone', () => {
    const rendered = render().filter(isPluginConfigMap);
    expect(rendered.map((d) => d.metadata.name)).toEqual(apps.map((a) => `${a}-executor-plugin`));
    for (const app of apps)
      expect(plugin(rendered.find((d) => d.metadata.name === `${app}-executor-plugin`)!)).toEqual(
        plugin(generatedConfigMap(join(repoRoot, 'manifests', app), app)),
      );
    const collection = render('-f', valuesFile('collection', { plugins: collectionOnly() })).filter(
      isPluginConfigMap,
    );
    expect(collection.map(plugin)).toEqual([
      plugin(generatedConfigMap(join(repoRoot, 'manifests/collection'), 'collection')),
    ]);
  });

  it('renders for changed settings what plugin:build writes for a plugin.yaml changed the same way', () => {
    const resources = { requests: { cpu: '20m', memory: '100Mi' }, limits: { cpu: '500m', memory: '200Mi' } };
    const values = {
      image: { tag: '0.2.0-rc.1' },
      plugins: {
        'chat-notifier': {
          env: {
            SLACK_DEDUP_LOOKBACK: 50,
            NAMESPACE_SCOPES: 'slack/default=ci-*',
            SLACK_API_URL: 'https://slack.test/api',
          },
          secretEnv: { SLACK_OPS_BOT_TOKEN: { key: 'ops-bot-token', optional: true } },
          resources,
        },
      },
    };
    const rendered = render('-f', valuesFile('changed', values)).find(
      (d) => isPluginConfigMap(d) && d.metadata.name === 'chat-notifier-executor-plugin',
    )!;
    // The same settings in plugin.yaml, as an administrator would write them there (its comments kept).
    const dir = join(home, 'chat-notifier');
    cpSync(join(repoRoot, 'manifests/chat-notifier'), dir, { recursive: true });
    const source = parseDocument(readFileSync(join(dir, 'plugin.yaml'), 'utf8'));
    const env = source.getIn(['spec', 'sidecar', 'container', 'env']) as YAMLSeq<YAMLMap>;
    env.items.find((e) => e.get('name') === 'SLACK_DEDUP_LOOKBACK')!.set('value', '50');
    for (const variable of [
      { name: 'NAMESPACE_SCOPES', value: 'slack/default=ci-*' },
      { name: 'SLACK_API_URL', value: 'https://slack.test/api' },
      {
        name: 'SLACK_OPS_BOT_TOKEN',
        valueFrom: {
          secretKeyRef: { name: 'chat-notifier-executor-plugin', key: 'ops-bot-token', optional: true },
        },
      },
    ])
      env.add(source.createNode(variable));
    source.setIn(['spec', 'sidecar', 'container', 'resources'], resources);
    writeFileSync(join(dir, 'plugin.yaml'), source.toString());
    // Exits 1 on a lint finding: the settings are ones plugin.yaml may hold.
    execFileSync(process.execPath, [join(repoRoot, 'tools/run-cli.mjs'), 'plugin-build', dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const built = generatedConfigMap(dir, 'chat-notifier');
    // plugin:build stamps the collection's version; the chart's tag is the value.
    const withTag = (cm: Doc) => {
      const p = plugin(cm);
      return {
        ...p,
        spec: { sidecar: { ...p.spec.sidecar, container: { ...p.spec.sidecar.container, image: '(tag)' } } },
      };
    };
    expect(withTag(rendered)).toEqual(withTag(built));
    expect(parse(rendered.data!['sidecar.container']).image).toBe(
      'ghcr.io/executor-plugins/executor-plugins/chat-notifier:0.2.0-rc.1',
    );
  });

  it('grants the agent what manifests/<plugin>/agent-rbac.yaml grants, and the executor what a namespace needs', () => {
    const rendered = render('--set', 'rbac.tokenSecrets=true');
    for (const app of apps) {
      const role = (list: Doc[]) =>
        list.find((d) => d.kind === 'Role' && d.metadata.name === `${app}-executor-plugin-agent`)?.rules;
      expect(role(rendered)).toEqual(
        role(docs(readFileSync(join(repoRoot, 'manifests', app, 'agent-rbac.yaml'), 'utf8'))),
      );
    }
    const namespaceNeeds = docs(
      readFileSync(join(repoRoot, 'tools/argo-stack/manifests/workflow-namespace.yaml'), 'utf8'),
    );
    expect(
      rendered.find((d) => d.metadata.name === `${RELEASE}-executor` && d.kind === 'Role')?.rules,
    ).toEqual(namespaceNeeds.find((d) => d.kind === 'Role')?.rules);
    expect(rendered.filter((d) => d.kind === 'Secret').map((d) => d.metadata.name)).toEqual([
      'default.service-account-token',
    ]);
  });

  it('refuses a credential in values, an unknown plugin, and the collection beside a single plugin', () => {
    const fails = (...args: string[]) => {
      try {
        run('template', RELEASE, CHART, ...args);
        return '';
      } catch (err) {
        return String((err as { stderr?: string }).stderr);
      }
    };
    expect(fails('--set', 'plugins.chat-notifier.env.SLACK_BOT_TOKEN=xoxb-1')).toContain(
      'plugins.chat-notifier.env.SLACK_BOT_TOKEN: the plugin reads it from the Secret chat-notifier-executor-plugin, key bot-token',
    );
    expect(fails('--set', 'plugins.chat-notifier.secretEnv.SLACK_OPS_BOT_TOKEN.value=xoxb-1')).toContain(
      "additional properties 'value' not allowed",
    );
    expect(fails('--set', 'plugins.slack.enabled=true')).toContain(
      'plugins.slack: the chart holds no such plugin',
    );
    expect(fails('--set', 'plugins.collection.enabled=true')).toContain('the collection answers the keys of');
  });

  it('installs into a fresh namespace, runs an example per plugin, upgrades a setting, uninstalls to nothing', async () => {
    kubectl(state, ['create', 'namespace', NAMESPACE]);
    const standIns = await startStandIns(apps);
    try {
      const env = await appEnv(state, NAMESPACE, standIns);
      const settings: Record<string, { env: Record<string, string> }> = {};
      for (const app of apps) {
        const container = pluginManifest(app).spec.sidecar.container;
        await apply(state, NAMESPACE, settingsObjects(container, env[app]));
        settings[app] = { env: plainSettings(container, env[app]) };
      }
      const install = (verb: 'install' | 'upgrade', values: unknown) =>
        run(
          verb,
          RELEASE,
          CHART,
          '-n',
          NAMESPACE,
          '--set',
          'rbac.tokenSecrets=true',
          '-f',
          valuesFile(verb, values),
        );
      install('install', { plugins: settings });

      const all = apps.flatMap((app) =>
        examples(app, { quick: true }).filter((e) => e.file.endsWith(`/${EXAMPLE[app]}`)),
      );
      const workflows = all.filter(({ doc }) => doc.kind === 'Workflow');
      expect(workflows.map((w) => w.file)).toHaveLength(apps.length);
      const runs = await Promise.all(
        workflows.map((w) => runWorkflow(state, NAMESPACE, 'helm', { what: w.file, doc: w.doc })),
      );
      expect(runs.map((r) => [r.what, r.phase])).toEqual(runs.map((r) => [r.what, 'Succeeded']));

      // A changed setting: the chat notifier's default workspace closed to this namespace.
      const scoped = { ...settings['chat-notifier'].env, NAMESPACE_SCOPES: 'slack/default=nobody' };
      install('upgrade', { plugins: { ...settings, 'chat-notifier': { env: scoped } } });
      const notify = workflows.find((w) => w.file.includes('chat-notifier'))!;
      const refused = await runWorkflow(state, NAMESPACE, 'helm', {
        what: `${notify.file} (NAMESPACE_SCOPES closes its workspace)`,
        doc: expecting(notify.doc, 'Failed'),
      });
      expect(refused.phase).toBe('Failed');
      expect(refused.message).toContain(`for namespace ${NAMESPACE}`);

      run('uninstall', RELEASE, '-n', NAMESPACE, '--wait');
      const left = kubectl(state, [
        'get',
        'configmaps,roles,rolebindings,secrets',
        '-n',
        NAMESPACE,
        '-l',
        `app.kubernetes.io/instance=${RELEASE}`,
        '-o',
        'name',
      ]);
      expect(left.trim()).toBe('');
      const plugins = kubectl(state, [
        'get',
        'configmaps',
        '-n',
        NAMESPACE,
        '-l',
        'workflows.argoproj.io/configmap-type',
        '-o',
        'name',
      ]);
      expect(plugins.trim()).toBe('');
      expect(run('list', '-n', NAMESPACE, '-q').trim()).toBe('');
    } finally {
      await standIns.close();
    }
  });
});

/** The workflow, annotated with the phase it is to end in (as the demo reads it). */
function expecting(doc: ManifestDoc, phase: string): ManifestDoc {
  const annotations = { ...doc.metadata.annotations, [EXPECT_ANNOTATION]: phase };
  return { ...doc, metadata: { ...doc.metadata, annotations } };
}

/** Plugins values with the collection enabled and every single plugin off. */
function collectionOnly(): Record<string, { enabled: boolean }> {
  return Object.fromEntries([...apps.map((a) => [a, { enabled: false }]), ['collection', { enabled: true }]]);
}
