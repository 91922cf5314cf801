import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { marshalGoYaml } from './go-yaml.js';

/** Plugin directories of a manifests tree: every child folder with a plugin.yaml. */
export function pluginDirs(manifestsDir: string): string[] {
  if (!existsSync(manifestsDir)) return [];
  return readdirSync(manifestsDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(manifestsDir, e.name, 'plugin.yaml')))
    .map((e) => join(manifestsDir, e.name))
    .sort();
}

/** manifests/kustomization.yaml: installs every plugin's ConfigMap (`kubectl apply -n <ns> -k manifests`). */
export function collectionKustomization(manifestsDir: string, configMapFiles: string[]): string {
  return (
    '# This is an auto-generated file (npm run plugin:build). DO NOT EDIT\n' +
    marshalGoYaml({
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      resources: configMapFiles.map((f) => relative(manifestsDir, f)),
    })
  );
}
