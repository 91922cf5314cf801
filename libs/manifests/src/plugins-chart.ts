import { join } from 'node:path';
import { GENERATED_BY } from './agent-rbac.js';

/** The Helm chart of the plugins and the collection (charts/executor-plugins). */
export const PLUGINS_CHART = join('charts', 'executor-plugins');

/**
 * The chart renders each plugin's ConfigMap from the one `npm run plugin:build` writes (a chart cannot read
 * files outside its folder): a copy under files/, so that the chart's defaults are the manifests and cannot drift.
 */
export function pluginsChartFiles(
  root: string,
  packages: Array<{ app: string; files: Array<{ content: string }> }>,
): Array<{ path: string; content: string }> {
  return packages.map((p) => ({
    path: join(root, PLUGINS_CHART, 'files', `${p.app}.yaml`),
    content:
      GENERATED_BY +
      `# manifests/${p.app}'s ConfigMap, which the chart renders with the settings of its values.\n` +
      p.files[0].content,
  }));
}
