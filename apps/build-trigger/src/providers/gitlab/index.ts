import { upstreamKind } from '@app/plugin-kit';
import { defineBuildProvider } from '../../build/build-provider.js';
import { GITLAB_FAMILY, gitlabVariables, readGitlab } from './gitlab-settings.js';

/** GitLab CI: a pipeline (with an access token or a pipeline trigger token). */
export const gitlab = defineBuildProvider({
  key: 'gitlab',
  variables: gitlabVariables,
  prefixes: [`${GITLAB_FAMILY.prefix}_`],
  enable: 'GITLAB_TOKEN / GITLAB_TRIGGER_TOKEN',
  scopeKinds: ['gitlab'],
  read: readGitlab,
  configured: (servers) => servers.size > 0,
  destinations: (servers) => ({ gitlab: servers.keys() }),
  credentials: (servers) =>
    [...servers.values()].flatMap((s) =>
      [s.token, s.triggerToken].flatMap((t) => (t ? [{ secret: t }] : [])),
    ),
  upstreams: upstreamKind(
    'gitlab',
    'server',
    GITLAB_FAMILY,
    (v) => `${v('URL')} and ${v('TOKEN')} or ${v('TRIGGER_TOKEN')}`,
  ),
  load: async () => (await import('./gitlab.provider.js')).gitlabModule,
});
