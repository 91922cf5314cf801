import { Injectable } from '@nestjs/common';
import { parseDuration } from '@app/contract';
import { PluginConfigError } from '@app/plugin-kit';
import type { BuildProvider } from '../build/build-provider.js';
import type { ProviderName } from '../build/build-run.js';
import { BuildTriggerEnv } from '../config/build-trigger.env.js';
import { DEFAULT_SERVER, serverEnvName, serverId } from '../config/servers.js';
import { createGitHubHttp } from './github/github-client.js';
import { GitHubActionsProvider } from './github/github-actions.provider.js';
import { GitLabProvider } from './gitlab/gitlab.provider.js';
import { JenkinsClient } from './jenkins/jenkins-client.js';
import { JenkinsProvider } from './jenkins/jenkins.provider.js';

const HOW_TO_CONFIGURE: Record<ProviderName, string> = {
  jenkins: 'JENKINS_URL, JENKINS_USER and JENKINS_API_TOKEN',
  github: 'GITHUB_TOKEN (and GITHUB_API_URL for GitHub Enterprise)',
  gitlab: 'GITLAB_URL and GITLAB_TOKEN or GITLAB_TRIGGER_TOKEN',
};

/**
 * The configured servers as providers, one instance per (provider, server), created on first use. A body
 * can only pick a server by name: hosts and credentials come from the sidecar environment.
 */
@Injectable()
export class ProviderRegistry {
  private readonly providers = new Map<string, BuildProvider>();
  private readonly timeoutMs: number;

  constructor(private readonly env: BuildTriggerEnv) {
    this.timeoutMs = parseDuration(env.UPSTREAM_TIMEOUT);
  }

  /**
   * The provider for a body from a workflow of `namespace`; PluginConfigError when that provider or server is
   * not configured, or not open to the namespace (NAMESPACE_SCOPES). Both read the same, and list only the
   * servers the namespace may use: an author learns no other server's name.
   */
  get(provider: ProviderName, server: string | undefined, namespace: string): BuildProvider {
    const name = serverId(server);
    if (!this.env.scopes.allows(provider, name, namespace)) this.missing(provider, server, namespace);
    const id = `${provider}:${name}`;
    let instance = this.providers.get(id);
    if (!instance) {
      instance = this.create(provider, name, () => this.missing(provider, server, namespace));
      this.providers.set(id, instance);
    }
    return instance;
  }

  private missing(provider: ProviderName, asGiven: string | undefined, namespace: string): never {
    const configured = this.env.servers[provider];
    if (configured.size === 0) {
      throw new PluginConfigError(
        `${provider}: no ${provider} server is configured for this sidecar (the admin sets ${HOW_TO_CONFIGURE[provider]})`,
      );
    }
    const open = this.env.scopes.allowed(provider, configured.keys(), namespace);
    const names =
      open.map((n) => (n === DEFAULT_SERVER ? 'default (no server field)' : n)).join(', ') || 'none';
    throw new PluginConfigError(
      asGiven === undefined
        ? `server: no default ${provider} server for namespace ${namespace}; choose one of: ${names}`
        : `server: unknown ${provider} server "${asGiven}" for namespace ${namespace} (the admin would set ${provider.toUpperCase()}_${serverEnvName(asGiven)}_*); available: ${names}`,
    );
  }

  private create(provider: ProviderName, name: string, missing: () => never): BuildProvider {
    switch (provider) {
      case 'jenkins': {
        const s = this.env.servers.jenkins.get(name) ?? missing();
        return new JenkinsProvider(new JenkinsClient(s, this.timeoutMs)) as BuildProvider;
      }
      case 'github': {
        const s = this.env.servers.github.get(name) ?? missing();
        return new GitHubActionsProvider(
          createGitHubHttp(s, this.timeoutMs),
          parseDuration(this.env.GITHUB_RUN_LOOKUP_TIMEOUT),
        ) as BuildProvider;
      }
      case 'gitlab': {
        const s = this.env.servers.gitlab.get(name) ?? missing();
        return new GitLabProvider(s, this.timeoutMs) as BuildProvider;
      }
    }
  }
}
