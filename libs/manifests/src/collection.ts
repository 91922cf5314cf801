import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { marshalGoYaml } from './go-yaml.js';

/** Plugin directories of a manifests tree: every child folder with a plugin.yaml. */
export function pluginDirs(manifestsDir: string): string[] {
  if (!existsSync(manifestsDir)) return [];
  return readdirSync(manifestsDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(manifestsDir, e.name, 'plugin.yaml')))
    .map((e) => join(manifestsDir, e.name))
    .sort();
}

/**
 * manifests/kustomization.yaml: every plugin of the collection (`kubectl apply -n <ns> -k manifests`), each
 * through its own directory's kustomization (ConfigMap + agent RBAC). Takes the plugins' ConfigMap files.
 */
export function collectionKustomization(manifestsDir: string, configMapFiles: string[]): string {
  return (
    '# This is an auto-generated file (npm run plugin:build). DO NOT EDIT\n' +
    '# kubectl apply -n <namespace> -k manifests: every plugin (ConfigMap + agent RBAC) into one namespace.\n' +
    marshalGoYaml({
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      resources: configMapFiles.map((f) => relative(manifestsDir, dirname(f))),
    })
  );
}
