import type { ExecutorPlugin } from './executor-plugin.js';
import { hostsPlugins } from './distribution.js';
import { HOSTS_ANNOTATION, KEYS_ANNOTATION, pluginKeys } from './lint.js';
import { executorPluginObjectName, lintNaming, settingsConfigMapName } from './naming.js';

type Env = NonNullable<ExecutorPlugin['spec']['sidecar']['container']['env']>;
const plugin = (
  name: string,
  container: string,
  annotations: Record<string, string> = {},
  env: Env = [],
): ExecutorPlugin => ({
  apiVersion: 'argoproj.io/v1alpha1',
  kind: 'ExecutorPlugin',
  metadata: { name, annotations },
  spec: { sidecar: { container: { name: container, env } } },
});
const secret = (name: string, key: string) => ({ secretKeyRef: { name, key, optional: true } });
const settings = (name: string, key: string) => ({ configMapKeyRef: { name, key, optional: true } });

describe('naming convention', () => {
  it('names every object of a component <component>-executor-plugin', () => {
    expect(executorPluginObjectName('chat-notifier')).toBe('chat-notifier-executor-plugin');
    expect(settingsConfigMapName('data-job-runner')).toBe('data-job-runner-executor-plugin-settings');
  });

  it('holds the plugins of this repository to it, and leaves other plugins alone', () => {
    expect(
      lintNaming(plugin('chat-notifier', 'chat-notifier-executor-plugin'), 'f', 'chat-notifier'),
    ).toEqual([]);
    expect(lintNaming(plugin('slack', 'slack-executor-plugin'), 'f', 'chat-notifier')).toEqual([
      { file: 'f', field: 'metadata.name', problem: "must be the component's name, chat-notifier" },
      { file: 'f', field: 'spec.sidecar.container.name', problem: 'must be chat-notifier-executor-plugin' },
    ]);
    expect(lintNaming(plugin('slack', 'whatever'), 'f', undefined)).toEqual([]);
  });

  it('Secrets and settings ConfigMaps: the own ones (a collection: those of its plugins), 0.1.0 ones only as FORMER_ twins', () => {
    const env: Env = [
      { name: 'SLACK_BOT_TOKEN', valueFrom: secret('chat-notifier-executor-plugin', 'bot-token') },
      {
        name: 'DATABRICKS_HOST',
        valueFrom: settings('data-job-runner-executor-plugin-settings', 'databricks-host'),
      },
      { name: 'FORMER_SLACK_BOT_TOKEN', valueFrom: secret('slack-notifier', 'bot-token') },
    ];
    const hosts = { [HOSTS_ANNOTATION]: 'chat-notifier,data-job-runner' };
    expect(
      lintNaming(plugin('collection', 'collection-executor-plugin', hosts, env), 'f', 'collection'),
    ).toEqual([]);
    const bad: Env = [
      { name: 'SLACK_BOT_TOKEN', valueFrom: secret('slack-notifier', 'bot-token') },
      { name: 'FORMER_SLACK_BOT_TOKEN', valueFrom: secret('slack-notifier', 'token') },
      { name: 'FORMER_MATTERMOST_URL', valueFrom: secret('slack-notifier', 'mattermost-url') },
    ];
    expect(
      lintNaming(plugin('chat-notifier', 'chat-notifier-executor-plugin', {}, bad), 'f', 'chat-notifier').map(
        (f) => f.problem,
      ),
    ).toEqual([
      'SLACK_BOT_TOKEN: the secretKeyRef must name chat-notifier-executor-plugin',
      'FORMER_SLACK_BOT_TOKEN must read the key of SLACK_BOT_TOKEN from the 0.1.0 object',
      'FORMER_MATTERMOST_URL must read the key of MATTERMOST_URL from the 0.1.0 object',
    ]);
  });

  it('reads the keys a plugin answers and whether it hosts others from its annotations', () => {
    const single = plugin('chat-notifier', 'c', { [KEYS_ANNOTATION]: 'notify, slack' });
    const collection = plugin('collection', 'c', {
      [KEYS_ANNOTATION]: 'notify,build',
      [HOSTS_ANNOTATION]: 'chat-notifier,build-trigger',
    });
    expect(pluginKeys(single)).toEqual(['notify', 'slack']);
    expect(pluginKeys(plugin('hello', 'c'))).toEqual(['hello']);
    expect([single, collection].map(hostsPlugins)).toEqual([false, true]);
  });
});
