import { join } from 'node:path';
import { parse } from 'yaml';
import { PLUGINS_CHART, pluginsChartFiles } from './plugins-chart.js';

describe("the plugins chart's copies of the ConfigMaps", () => {
  it('holds, per plugin, the ConfigMap plugin:build writes, under files/<app>.yaml', () => {
    const configMap = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: thing-executor-plugin\n';
    const files = pluginsChartFiles('/repo', [{ app: 'thing', files: [{ content: configMap }] }]);
    expect(files.map((f) => f.path)).toEqual([join('/repo', PLUGINS_CHART, 'files', 'thing.yaml')]);
    expect(files[0].content.endsWith(configMap)).toBe(true);
    expect(parse(files[0].content)).toEqual(parse(configMap));
  });
});
