import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatFinding, lintExecutorPlugin, parseExecutorPlugin } from '@app/manifests';
import { report } from './support/report.js';
import { repoRoot } from './support/targets.js';

/**
 * Every manifests/<app>/plugin.yaml passes the manifest lint (libs/manifests), which includes the "restricted"
 * pod-security rules: runAsNonRoot, a non-zero runAsUser, no privilege escalation, capabilities drop ALL,
 * seccomp RuntimeDefault, a read-only root filesystem, secrets only through secretKeyRef.
 */
const dir = join(repoRoot, 'manifests');
const plugins = readdirSync(dir)
  .filter((app) => existsSync(join(dir, app, 'plugin.yaml')))
  .sort();

describe('manifests: the restricted pod-security rules', () => {
  const findings: string[] = [];
  afterAll(() =>
    report(
      `manifests: ${plugins.length} plugin.yaml (${plugins.join(', ')}) linted, ${findings.length} findings (restricted: runAsNonRoot, runAsUser ≠ 0, allowPrivilegeEscalation false, drop ALL, seccomp RuntimeDefault, readOnlyRootFilesystem, secretKeyRef)`,
    ),
  );

  it('finds the manifests', () => expect(plugins.length).toBeGreaterThan(0));

  it.each(plugins)('%s', (app) => {
    const file = join('manifests', app, 'plugin.yaml');
    const plugin = parseExecutorPlugin(readFileSync(join(repoRoot, file), 'utf8'), file);
    const found = lintExecutorPlugin(plugin, file).map(formatFinding);
    findings.push(...found);
    expect(found).toEqual([]);
    // The restricted profile itself, stated here too, so a lint that stopped checking it would not go unnoticed.
    expect(plugin.spec.sidecar.container.securityContext).toMatchObject({
      runAsNonRoot: true,
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: expect.arrayContaining(['ALL']) },
      seccompProfile: { type: 'RuntimeDefault' },
    });
  });
});
