import { defineBuildProvider, serverKind } from '../../build/build-provider.js';
import { GITHUB_FAMILY, githubVariables, readGithub } from './github-settings.js';

/** GitHub Actions: a workflow dispatch, followed by its run. */
export const github = defineBuildProvider({
  key: 'github',
  variables: githubVariables,
  prefixes: [`${GITHUB_FAMILY.prefix}_`],
  enable: 'GITHUB_TOKEN',
  scopeKinds: ['github'],
  read: readGithub,
  configured: (servers) => servers.size > 0,
  destinations: (servers) => ({ github: servers.keys() }),
  credentials: (servers) => [...servers.values()].map((s) => ({ secret: s.token })),
  servers: serverKind(
    'github',
    'GITHUB_TOKEN (and GITHUB_API_URL for GitHub Enterprise)',
    (n) => `GITHUB_${n}_TOKEN (and GITHUB_${n}_API_URL for GitHub Enterprise)`,
  ),
  load: async () => (await import('./github-actions.provider.js')).githubModule,
});
