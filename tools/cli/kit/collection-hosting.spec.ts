import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { collectionContext, planCollection, planPluginPackage, withGeneratedEnv } from '@app/manifests';
import { collectionHosting } from './collection-hosting.js';

const root = resolve(import.meta.dirname, '../../..');
const ctx = collectionContext(root, collectionHosting());

describe("the collection's manifest, from the code", () => {
  it("hosts the collection definition's plugins, each with its provider table", () => {
    const hosting = collectionHosting();
    expect(hosting.plugins.map((p) => p.name)).toEqual([
      'chat-notifier',
      'build-trigger',
      'data-job-runner',
      'event-emitter',
    ]);
    const build = hosting.plugins.find((p) => p.name === 'build-trigger')!;
    expect(build.providers.map((p) => p.key)).toEqual(['jenkins', 'github', 'gitlab']);
    expect(build.providers[0]!.variables).toContain('JENKINS_API_TOKEN');
  });

  it("has the env its hosted plugins make, and each plugin.yaml names its providers' variables", () => {
    const text = readFileSync(join(root, 'manifests/collection/plugin.yaml'), 'utf8');
    expect(withGeneratedEnv(text, 'collection', ctx)).toBe(text);
    expect(planCollection(ctx).problems).toEqual([]);
  });

  it.each(['chat-notifier', 'build-trigger', 'data-job-runner', 'event-emitter', 'collection'])(
    "%s's README teaches kubectl apply -k of its directory, as docs/install.md does",
    (app) => {
      const pkg = planPluginPackage(join(root, 'manifests', app), ctx);
      const readme = pkg.files.find((f) => f.path.endsWith('/README.md'))!.content;
      expect(readme).toContain(`\n    kubectl apply -n <namespace> -k manifests/${app}\n`);
      expect(readme).toContain(`\n    kubectl delete -n <namespace> -k manifests/${app}\n`);
      expect(readme).not.toContain('kubectl apply -f');
      // A plugin with a Secret example says to create it first.
      expect(readme.includes('Create the Secret first (secret.example.yaml)')).toBe(
        pkg.files.some((f) => f.path.endsWith('/secret.example.yaml')),
      );
    },
  );

  it('reports a hosted plugin whose plugin.yaml does not name a variable of one of its providers', () => {
    const hosting = collectionHosting();
    const dataJob = hosting.plugins.find((p) => p.name === 'data-job-runner')!;
    const extended = {
      ...hosting,
      plugins: hosting.plugins.map((p) =>
        p === dataJob
          ? { ...p, providers: [...p.providers, { key: 'livy', variables: ['LIVY_SESSION_TTL'] }] }
          : p,
      ),
    };
    const pkg = planPluginPackage(join(root, 'manifests/data-job-runner'), { ...ctx, hosting: extended });
    expect(pkg.findings).toContainEqual({
      file: 'manifests/data-job-runner/plugin.yaml',
      field: 'spec.sidecar.container.env',
      problem: 'LIVY_SESSION_TTL of the provider livy is neither set nor named in a comment',
    });
  });

  it('reports a collection env that is not the one its hosted plugins make', () => {
    const hosting = collectionHosting();
    const fewer = { ...hosting, plugins: hosting.plugins.slice(0, 3) };
    const pkg = planPluginPackage(join(root, 'manifests/collection'), { ...ctx, hosting: fewer });
    expect(pkg.findings).toContainEqual({
      file: 'manifests/collection/plugin.yaml',
      field: 'spec.sidecar.container.env',
      problem: 'differs from the env its hosted plugins make (run npm run plugin:build)',
    });
  });
});
