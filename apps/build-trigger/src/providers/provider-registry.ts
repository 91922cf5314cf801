import { Injectable } from '@nestjs/common';
import { parseDuration } from '@app/contract';
import { PluginConfigError, Redactor } from '@app/plugin-kit';
import type { BuildProvider } from '../build/build-provider.js';
import type { ProviderName } from '../build/build-run.js';
import { BuildTriggerEnv } from '../config/build-trigger.env.js';
import { DEFAULT_SERVER, serverEnvName } from '../config/servers.js';
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

  constructor(
    private readonly env: BuildTriggerEnv,
    redactor: Redactor,
  ) {
    this.timeoutMs = parseDuration(env.UPSTREAM_TIMEOUT);
    // The Basic header is base64 of user:token; mask that form too, should it ever reach a log line.
    for (const s of env.servers.jenkins.values())
      redactor.add(Buffer.from(`${s.user}:${s.apiToken}`).toString('base64'));
  }

  /** The provider for a body; PluginConfigError when that provider or server is not configured. */
  get(provider: ProviderName, server: string | undefined): BuildProvider {
    const name = server === undefined ? DEFAULT_SERVER : server.toLowerCase().replace(/-/g, '_');
    const id = `${provider}:${name}`;
    let instance = this.providers.get(id);
    if (!instance) {
      instance = this.create(provider, name, server);
      this.providers.set(id, instance);
    }
    return instance;
  }

  private create(provider: ProviderName, name: string, asGiven: string | undefined): BuildProvider {
    const configured = this.env.servers[provider];
    const missing = (): never => {
      if (configured.size === 0) {
        throw new PluginConfigError(
          `${provider}: no ${provider} server is configured for this sidecar (the admin sets ${HOW_TO_CONFIGURE[provider]})`,
        );
      }
      const names = [...configured.keys()]
        .map((n) => (n === DEFAULT_SERVER ? 'default (no server field)' : n))
        .join(', ');
      throw new PluginConfigError(
        asGiven === undefined
          ? `server: no default ${provider} server is configured; choose one of: ${names}`
          : `server: unknown ${provider} server "${asGiven}" (the admin would set ${provider.toUpperCase()}_${serverEnvName(asGiven)}_*); configured: ${names}`,
      );
    };
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
