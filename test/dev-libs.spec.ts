// libs/local-agent, libs/manifests and libs/events are dev tools (the tests, the demo, the CLIs): no plugin's or
// the shared agent's shipped code imports them, so no image carries them.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const repo = join(import.meta.dirname, '..');
const DEV_LIBS = ['@app/local-agent', '@app/manifests', '@app/events'];

function shipped(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return shipped(path);
    return name.endsWith('.ts') && !/\.(e2e-)?spec\.ts$/.test(name) ? [path] : [];
  });
}

describe('dev tools are not shipped', () => {
  const sources = [
    ...readdirSync(join(repo, 'apps'))
      .filter((app) => existsSync(join(repo, 'apps', app, 'src')))
      .flatMap((app) => shipped(join(repo, 'apps', app, 'src'))),
    ...['contract', 'plugin-kit', 'argo-agent', 'expr'].flatMap((lib) =>
      shipped(join(repo, 'libs', lib, 'src')),
    ),
  ];

  it('no source of an app or a shipped lib imports the local agent, the manifests or the events lib', () => {
    expect(sources.length).toBeGreaterThan(50);
    const imports = sources.flatMap((file) =>
      DEV_LIBS.filter((lib) => new RegExp(`from '${lib}[/']`).test(readFileSync(file, 'utf8'))).map(
        (lib) => `${relative(repo, file)} imports ${lib}`,
      ),
    );
    expect(imports).toEqual([]);
  });
});
