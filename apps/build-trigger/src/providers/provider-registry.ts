import { Injectable } from '@nestjs/common';
import { parseDuration } from '@app/contract';
import { UpstreamClients, type UpstreamKind } from '@app/plugin-kit';
import type { BuildProvider } from '../build/build-provider.js';
import type { ProviderName } from '../build/build-run.js';
import { BuildTriggerEnv } from '../config/build-trigger.env.js';
import { createGitHubHttp } from './github/github-client.js';
import { GitHubActionsProvider } from './github/github-actions.provider.js';
import { GitLabProvider } from './gitlab/gitlab.provider.js';
import { JenkinsClient } from './jenkins/jenkins-client.js';
import { JenkinsProvider } from './jenkins/jenkins.provider.js';

const kind = (
  provider: ProviderName,
  enable: string,
  variablesFor: (name: string) => string,
): UpstreamKind => ({
  provider,
  scope: provider,
  field: 'server',
  enable,
  variablesFor,
});

const KINDS: Record<ProviderName, UpstreamKind> = {
  jenkins: kind(
    'jenkins',
    'JENKINS_URL, JENKINS_USER and JENKINS_API_TOKEN',
    (n) => `JENKINS_${n}_URL, JENKINS_${n}_USER and JENKINS_${n}_API_TOKEN`,
  ),
  github: kind(
    'github',
    'GITHUB_TOKEN (and GITHUB_API_URL for GitHub Enterprise)',
    (n) => `GITHUB_${n}_TOKEN (and GITHUB_${n}_API_URL for GitHub Enterprise)`,
  ),
  gitlab: kind(
    'gitlab',
    'GITLAB_URL and GITLAB_TOKEN or GITLAB_TRIGGER_TOKEN',
    (n) => `GITLAB_${n}_URL and GITLAB_${n}_TOKEN or GITLAB_${n}_TRIGGER_TOKEN`,
  ),
};

/**
 * The configured servers as providers, one instance per (provider, server), created on first use. A body
 * can only pick a server by name: hosts and credentials come from the sidecar environment.
 */
@Injectable()
export class ProviderRegistry {
  private readonly providers: Record<ProviderName, Pick<UpstreamClients<unknown, BuildProvider>, 'get'>>;

  constructor(private readonly env: BuildTriggerEnv) {
    const timeoutMs = parseDuration(env.UPSTREAM_TIMEOUT);
    const clients = <S>(provider: ProviderName, servers: Map<string, S>, create: (server: S) => unknown) =>
      new UpstreamClients(KINDS[provider], servers, (server: S) => create(server) as BuildProvider);
    this.providers = {
      jenkins: clients(
        'jenkins',
        env.servers.jenkins,
        (s) => new JenkinsProvider(new JenkinsClient(s, timeoutMs)),
      ),
      github: clients(
        'github',
        env.servers.github,
        (s) =>
          new GitHubActionsProvider(
            createGitHubHttp(s, timeoutMs),
            parseDuration(env.GITHUB_RUN_LOOKUP_TIMEOUT),
          ),
      ),
      gitlab: clients('gitlab', env.servers.gitlab, (s) => new GitLabProvider(s, timeoutMs)),
    };
  }

  /**
   * The provider for a body from a workflow of `namespace`; PluginConfigError when that provider or server is
   * not configured, or not open to the namespace (NAMESPACE_SCOPES). Both read the same, and list only the
   * servers the namespace may use: an author learns no other server's name.
   */
  get(provider: ProviderName, server: string | undefined, namespace: string): BuildProvider {
    return this.providers[provider].get(server, { scopes: this.env.scopes, namespace });
  }
}
