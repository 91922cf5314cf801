import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { overridePrefixOf, sharedVariables, structuralClashes } from '@app/plugin-kit';
import { collection } from './collection.definition.js';

const appsDir = join(import.meta.dirname, '../..');

describe('the collection', () => {
  it('hosts every plugin app of the repository', () => {
    const apps = readdirSync(appsDir).filter(
      (app) =>
        existsSync(join(appsDir, app, 'src')) &&
        readdirSync(join(appsDir, app, 'src')).some((f) => f.endsWith('.plugin.ts')),
    );
    expect(apps.length).toBeGreaterThanOrEqual(4);
    const hostedText = readFileSync(join(import.meta.dirname, 'hosted-plugins.ts'), 'utf8');
    for (const app of apps) expect(hostedText).toContain(`'../../${app}/src/`);
    expect(collection.plugins.map((p) => p.key).slice(0, 4)).toEqual([
      'notify',
      'build',
      'data-job',
      'workflow-event',
    ]);
  });

  it('hosts plugins whose settings cannot clash: no kit variable, no shared key, no overlapping family', () => {
    expect(structuralClashes(collection.plugins)).toEqual([]);
  });

  it('has exactly the shared variables the docs list, each with its per-plugin form', () => {
    const shared = [...sharedVariables(collection.plugins)].map(
      ([name, owners]) => `${name}: ${owners.map((d) => overridePrefixOf(d) + name).join(', ')}`,
    );
    expect(shared).toEqual([
      'NAMESPACE_SCOPES: CHAT_NOTIFIER_NAMESPACE_SCOPES, BUILD_TRIGGER_NAMESPACE_SCOPES, DATA_JOB_RUNNER_NAMESPACE_SCOPES',
      'CANCEL_ON_SHUTDOWN: BUILD_TRIGGER_CANCEL_ON_SHUTDOWN, DATA_JOB_RUNNER_CANCEL_ON_SHUTDOWN',
      'UPSTREAM_TIMEOUT: BUILD_TRIGGER_UPSTREAM_TIMEOUT, DATA_JOB_RUNNER_UPSTREAM_TIMEOUT',
    ]);
    const doc = readFileSync(join(appsDir, '../docs/collection.md'), 'utf8');
    for (const line of shared) for (const name of line.split(/[:,] /)) expect(doc).toContain(name);
  });
});
