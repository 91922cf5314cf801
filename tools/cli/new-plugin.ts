// npm run new-plugin -- <name> <kind>   scaffolds a working plugin of one kind (scaffold-kinds.ts): app
// (definition, config class, Nest module, handler, and what the kind needs beyond), unit and e2e tests, a
// manifest on the next free private port with an example workflow, the generated ConfigMap and README, and a
// docs page. The result passes `npm test` as is.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import * as prettier from 'prettier';
import {
  collectionContext,
  withGeneratedEnv,
  writeCollectionFiles,
  writeNoFollow,
  writePluginPackage,
} from '@app/manifests';
import { exitWith, runCommand, UsageError } from './kit/args.js';
import { collectionHosting } from './kit/collection-hosting.js';
import { chooseKind, KIND_USAGE, SCAFFOLD_KINDS, type ScaffoldKind } from './kit/scaffold-kinds.js';
import { nextFreePort, scaffoldValues, templateFiles } from './kit/scaffold-values.js';
import { scaffoldStandalone } from './kit/standalone-scaffold.js';

const root = resolve(import.meta.dirname, '../..');
const templates = join(root, 'tools/new-plugin/templates');

const USAGE = `usage: npm run new-plugin -- <name> (--upstream http|none | --provider)
       npm run new-plugin -- <name> --upstream http|none --standalone <dir> [--tarballs <folder>]

Scaffolds a working plugin named <name> (lower-case words joined by dashes, e.g. my-thing, at most 40
characters): apps/<name> (definition, config class, Nest module, handler, unit and e2e tests,
test/conformance.json; demo/upstreams.ts, the stand-ins, unless --upstream none), manifests/<name> (plugin.yaml on the next free port, an example
workflow that reads an output, the generated ConfigMap and README) and docs/<name>.md, and adds it to the
collection and its generated manifest. The result passes npm test as is, and the conformance, reliability and
bench suites cover it. The kind says what else it has (without one, it asks on a terminal):
${KIND_USAGE}

With --standalone <dir>, the plugin is a repository of its own in <dir> instead (nothing here changes): its
sources, node:test tests (unit, e2e through the local agent, conformance), Dockerfile, manifests and README, on
the @executor-plugins/contract, plugin-kit, local-agent and conformance packages, by version or, with
--tarballs <folder>, from the tarballs npm run packages writes (copied into <dir>/packages).`;

/** The checked name, or a usage error. Nothing is written before this passes. */
function checkName(name: string, standalone: boolean): void {
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name) || name.length > 40)
    throw new UsageError(
      `'${name}' is not a plugin name: lower-case words joined by dashes, e.g. my-thing (at most 40 characters)`,
    );
  if (!standalone && (existsSync(join(root, 'apps', name)) || existsSync(join(root, 'manifests', name))))
    throw new UsageError(`apps/${name} or manifests/${name} already exists`);
}

/** Every file below the given directories of the repository, with its text: what the scaffold may edit. */
function snapshot(dirs: string[]): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string): void => {
    if (!existsSync(dir)) return;
    for (const f of readdirSync(dir)) {
      const path = join(dir, f);
      if (statSync(path).isDirectory()) walk(path);
      else out.set(relative(root, path), readFileSync(path, 'utf8'));
    }
  };
  for (const d of dirs) walk(join(root, d));
  return out;
}

/** The generated files: the manifests and the shared agent's chart. */
const GENERATED_DIRS = ['manifests', 'charts'];

async function scaffold(name: string, kind: ScaffoldKind): Promise<number> {
  const port = nextFreePort(root);
  const spec = SCAFFOLD_KINDS[kind];
  const { values, render } = scaffoldValues(root, name, spec, port);

  const targets: Record<string, string> = {
    app: `apps/${name}`,
    manifest: `manifests/${name}`,
    docs: 'docs',
  };
  const before = snapshot(GENERATED_DIRS);
  const written: string[] = [];
  for (const [section, target] of Object.entries(targets)) {
    // The kind's templates over the common ones: a file of the kind replaces the common file of its path.
    const sources = new Map<string, string>();
    for (const dir of ['common', kind]) {
      const from = join(templates, dir, section);
      if (existsSync(from)) for (const f of templateFiles(from)) sources.set(relative(from, f), f);
    }
    for (const [file, source] of sources) {
      const path = join(root, target, render(file).replace(/\.tmpl$/, ''));
      mkdirSync(dirname(path), { recursive: true });
      let content = render(readFileSync(source, 'utf8'));
      if (/\.(ts|json)$/.test(path))
        content = await prettier.format(content, { ...(await prettier.resolveConfig(path)), filepath: path });
      writeFileSync(path, content);
      written.push(relative(root, path));
    }
  }

  // The collection sidecar hosts every plugin: one line in its list.
  const hostedList = join(root, 'apps/collection/src/hosted-plugins.ts');
  if (existsSync(hostedList)) {
    const line = `export { ${values.__camel__}Plugin } from '../../${name}/src/${name}.plugin.js';\n`;
    writeFileSync(hostedList, readFileSync(hostedList, 'utf8') + line);
    written.push(relative(root, hostedList));
  }

  // A provider's secrets each need a row of the credential-forms suite; the kind's rows open its list.
  const credentialForms = join(root, 'test/reliability/credential-forms.e2e-spec.ts');
  if (spec.credentialRows && existsSync(credentialForms)) {
    const opening = 'const ROWS: Row[] = [\n';
    const text = readFileSync(credentialForms, 'utf8');
    if (!text.includes(opening))
      throw new Error(`${relative(root, credentialForms)} has no "${opening.trim()}"`);
    writeFileSync(credentialForms, text.replace(opening, opening + render(spec.credentialRows)));
    written.push(relative(root, credentialForms));
  }

  // This process loaded the collection's list before the line above: the new plugin joins its hosting here.
  const hosting = collectionHosting();
  const ctx = collectionContext(root, {
    ...hosting,
    plugins: [
      ...hosting.plugins,
      { name, key: name, keys: [name], prefix: `${values.__ENV__}_`, providers: spec.providers },
    ],
  });
  writePluginPackage(join(root, 'manifests', name), ctx);
  const collectionDir = join(root, 'manifests', hosting.app);
  const collectionYaml = join(collectionDir, 'plugin.yaml');
  if (existsSync(collectionYaml)) {
    const text = readFileSync(collectionYaml, 'utf8');
    writeNoFollow(collectionYaml, withGeneratedEnv(text, hosting.app, ctx, [name]), collectionDir);
    writePluginPackage(collectionDir, ctx);
  }
  writeCollectionFiles(ctx);
  // Every generated file the scaffold created or changed, listed (the collection's are rewritten whole).
  for (const [path, text] of snapshot(GENERATED_DIRS))
    if (before.get(path) !== text && !written.includes(path)) written.push(path);

  console.log(`created plugin "${name}" (${spec.label}; key ${name}, port ${port}):`);
  for (const f of written) console.log(`  ${f}`);
  console.log(`
  next:
    edit apps/${name}/src/${name}.handler.ts and apps/${name}/src/dto/${name}-config.dto.ts
    npm run plugin:build                      # after editing manifests/${name}/plugin.yaml or its examples
    npm run test:plugin -- ${name}            # its unit and e2e tests, conformance and examples
    npm run demo -- --only ${name}
    docs/write-a-plugin.md walks these steps, and on to the real Argo stack`);
  return 0;
}

await runCommand(
  { name: 'new-plugin', help: 'npm run new-plugin -- --help' },
  process.argv.slice(2),
  {
    usage: USAGE,
    options: {
      upstream: { type: 'string', choices: ['http', 'none'] },
      provider: { type: 'boolean' },
      standalone: { type: 'string' },
      tarballs: { type: 'string' },
    },
    positionals: [{ name: '<name>', required: true }],
  },
  async ({ positionals: [name], values }) => {
    checkName(name, values.standalone !== undefined);
    const kind = await chooseKind(values.upstream, values.provider);
    if (values.standalone !== undefined)
      return scaffoldStandalone(root, name, kind, values.standalone, values.tarballs);
    if (values.tarballs !== undefined) throw new UsageError('--tarballs goes with --standalone <dir>');
    return scaffold(name, kind);
  },
).then(exitWith);
