// What `npm run new-plugin` fills its templates with, in the repository and in a repository of its own
// (--standalone): the names, the next free port and the versions, and the renderer of `__value__` markers.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ARGO_MIN_VERSION, parseExecutorPlugin, pluginDirs } from '@app/manifests';
import type { KindSpec } from './scaffold-kinds.js';

const FIRST_PORT = 10420;

/** The port after the repository's single plugins (the collection's 10430 is apart from their range on purpose). */
export function nextFreePort(root: string): number {
  const used = pluginDirs(join(root, 'manifests'))
    .filter((dir) => !dir.endsWith('/collection'))
    .map(
      (dir) =>
        parseExecutorPlugin(readFileSync(join(dir, 'plugin.yaml'), 'utf8')).spec.sidecar.container.ports?.[0]
          ?.containerPort ?? 0,
    );
  return Math.max(FIRST_PORT - 1, ...used) + 1;
}

export interface ScaffoldValues {
  values: Record<string, string>;
  render(text: string): string;
}

/** The `__value__`s of a plugin named `name` of the kind `spec` on `port`, and their renderer. */
export function scaffoldValues(root: string, name: string, spec: KindSpec, port: number): ScaffoldValues {
  const pascal = name
    .split('-')
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string })
    .version;
  const values: Record<string, string> = {
    __name__: name,
    __key__: name,
    __Pascal__: pascal,
    __camel__: pascal[0].toLowerCase() + pascal.slice(1),
    __ENV__: name.toUpperCase().replace(/-/g, '_'),
    __port__: String(port),
    __version__: version,
    __argoVersion__: ARGO_MIN_VERSION,
  };
  const render = (text: string) =>
    text.replace(
      /__(name|key|Pascal|camel|ENV|port|version|argoVersion|summary|exampleStep|sidecarEnv)__/g,
      (m) => values[m],
    );
  // The manifest's parts that differ by kind, themselves rendered with the values above.
  values.__summary__ = render(spec.summary);
  values.__exampleStep__ = render(spec.exampleStep);
  values.__sidecarEnv__ = render(spec.sidecarEnv);
  return { values, render };
}

/** Every file below `dir`. */
export function templateFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) =>
    statSync(join(dir, f)).isDirectory() ? templateFiles(join(dir, f)) : [join(dir, f)],
  );
}
