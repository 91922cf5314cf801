import { upstreamKind } from '@app/plugin-kit';
import { defineBuildProvider } from '../../build/build-provider.js';
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
  upstreams: upstreamKind(
    'github',
    'server',
    GITHUB_FAMILY,
    (v) => `${v('TOKEN')} (and ${v('API_URL')} for GitHub Enterprise)`,
  ),
  load: async () => (await import('./github-actions.provider.js')).githubModule,
});
