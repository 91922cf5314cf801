import { upstreamKind } from '@app/plugin-kit';
import { defineBuildProvider } from '../../build/build-provider.js';
import { JENKINS_FAMILY, jenkinsVariables, readJenkins } from './jenkins-settings.js';

/** Jenkins: a job's build (`buildWithParameters`), multibranch jobs included. */
export const jenkins = defineBuildProvider({
  key: 'jenkins',
  variables: jenkinsVariables,
  prefixes: [`${JENKINS_FAMILY.prefix}_`],
  enable: 'JENKINS_URL + JENKINS_USER + JENKINS_API_TOKEN',
  scopeKinds: ['jenkins'],
  read: (_env, source) => readJenkins(source),
  configured: (servers) => servers.size > 0,
  destinations: (servers) => ({ jenkins: servers.keys() }),
  // A Jenkins token is sent with its user (Basic).
  credentials: (servers) => [...servers.values()].map((s) => ({ secret: s.apiToken, user: s.user })),
  upstreams: upstreamKind(
    'jenkins',
    'server',
    JENKINS_FAMILY,
    (v) => `${v('URL')}, ${v('USER')} and ${v('API_TOKEN')}`,
  ),
  load: async () => (await import('./jenkins.provider.js')).jenkinsModule,
});
