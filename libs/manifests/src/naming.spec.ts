import type { ExecutorPlugin } from './executor-plugin.js';
import { hostsPlugins } from './distribution.js';
import { HOSTS_ANNOTATION, KEYS_ANNOTATION, pluginKeys } from './lint.js';
import { executorPluginObjectName, lintNaming } from './naming.js';

const plugin = (
  name: string,
  container: string,
  annotations: Record<string, string> = {},
): ExecutorPlugin => ({
  apiVersion: 'argoproj.io/v1alpha1',
  kind: 'ExecutorPlugin',
  metadata: { name, annotations },
  spec: { sidecar: { container: { name: container } } },
});

describe('naming convention', () => {
  it('names every object of a component <component>-executor-plugin', () => {
    expect(executorPluginObjectName('chat-notifier')).toBe('chat-notifier-executor-plugin');
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
