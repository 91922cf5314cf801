// npm run plugin:build [-- <dir>...]: argo executor-plugin build + the collection's stamping, install files and lint.
import { readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import {
  collectionContext,
  formatFinding,
  isCollectionApp,
  lintUniqueness,
  pluginDirs,
  stampPluginYaml,
  writeCollectionFiles,
  writeNoFollow,
  withGeneratedEnv,
  writePluginPackage,
} from '@app/manifests';
import { collectionHosting } from './kit/collection-hosting.js';
import { checkInput, exitWith, runCommand } from './kit/args.js';

const root = resolve(import.meta.dirname, '../..');
const manifestsDir = join(root, 'manifests');

const USAGE = `usage: npm run plugin:build [-- <plugin-dir> ...]

Does what \`argo executor-plugin build <dir>\` does (the ConfigMap and README of each plugin directory), after
stamping this collection's apps (apps/<name>) with the collection's version: the image tag from package.json
and the minimum Argo version annotation. A plugin from elsewhere keeps the version it declares. Then writes
the install files beside them and runs the stricter lint. Without a directory it builds every plugin under
manifests/; the collection files (manifests/kustomization.yaml, manifests/install/) are rebuilt whenever a
plugin under manifests/ is. A file to write that is a symbolic link (or lies under one below the plugin
directory) is not written through: that plugin fails with one line naming the link. Exit 1 on a build error,
a lint finding or such a link, 2 for a bad argument.`;

const show = (path: string) => relative(process.cwd(), path) || path;

await runCommand(
  { name: 'plugin:build', help: 'npm run plugin:build -- --help' },
  process.argv.slice(2),
  { usage: USAGE, options: {}, positionals: [{ name: '<plugin-dir>', multiple: true, input: 'dir' }] },
  ({ positionals }) => {
    const ctx = collectionContext(root, collectionHosting());
    const targets = positionals.length > 0 ? positionals.map((d) => resolve(d)) : pluginDirs(manifestsDir);
    // Every input is read before anything is written: a bad argument leaves the tree as it was.
    const sources = targets.map((dir) => {
      const source = join(dir, 'plugin.yaml');
      checkInput('<plugin-dir>', source, 'file');
      return { dir, source, text: readFileSync(source, 'utf8') };
    });
    let failed = false;
    for (const { dir, source, text } of sources) {
      try {
        const app = basename(dir);
        const stamped = withGeneratedEnv(
          stampPluginYaml(text, ctx, isCollectionApp(ctx, app) ? app : undefined),
          app,
          ctx,
        );
        if (stamped !== text) {
          writeNoFollow(source, stamped, dir);
          console.log(`${show(source)} stamped (image tag ${ctx.version}, Argo ${ctx.argoVersion})`);
        }
        const { pkg, written } = writePluginPackage(dir, ctx);
        for (const path of written) console.log(`${show(path)} created`);
        for (const path of pkg.obsolete) console.log(`${show(path)} removed`);
        for (const finding of pkg.findings) {
          console.error(formatFinding(finding));
          failed = true;
        }
      } catch (err) {
        console.error((err as Error).message);
        failed = true;
      }
    }
    // The collection files depend on every plugin under manifests/, so they are rebuilt from the whole tree.
    if (targets.some((dir) => dirname(dir) === manifestsDir)) {
      const collection = writeCollectionFiles(ctx);
      for (const path of collection.written) console.log(`${show(path)} created`);
      for (const finding of lintUniqueness(collection.packages)) {
        console.error(formatFinding(finding));
        failed = true;
      }
    }
    return failed ? 1 : 0;
  },
).then(exitWith);
