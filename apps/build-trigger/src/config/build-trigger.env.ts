import {
  EnvBoolean,
  NamespaceScopes,
  Secret,
  type Credential,
  upstreamId,
  type EnvExtras,
  type EnvSource,
} from '@app/plugin-kit';
import {
  IsBoolean,
  IsGoDuration,
  IsHttpUrl,
  IsNotEmpty,
  IsOptional,
  IsString,
} from '@app/plugin-kit/config/env-rules.js';
import { readServers } from './named-servers.js';
import { GITHUB_PUBLIC_API, GITLAB_PUBLIC_URL, type ServerDirectory } from './servers.js';

/**
 * Admin configuration of the build sidecar. Credentials come from Secrets (secretKeyRef) only; the workflow
 * body can choose a configured server by name, never a host or a credential.
 */
export class BuildTriggerEnv implements EnvExtras {
  @IsOptional()
  @IsHttpUrl()
  JENKINS_URL?: string;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  JENKINS_USER?: string;

  @Secret()
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  JENKINS_API_TOKEN?: string;

  @Secret()
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  GITHUB_TOKEN?: string;

  /** https://api.github.com, or https://HOST/api/v3 for GitHub Enterprise Server. */
  @IsHttpUrl()
  GITHUB_API_URL = GITHUB_PUBLIC_API;

  /** The instance root (https://gitlab.example.com); a trailing /api/v4 is accepted too. */
  @IsHttpUrl()
  GITLAB_URL = GITLAB_PUBLIC_URL;

  @Secret()
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  GITLAB_TOKEN?: string;

  @Secret()
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  GITLAB_TRIGGER_TOKEN?: string;

  /** Cancel the builds this sidecar is following when it receives SIGTERM (off: a restart must not kill builds). */
  @EnvBoolean()
  @IsBoolean()
  CANCEL_ON_SHUTDOWN = false;

  /** Longest a single upstream request may take (keep it well below the kit's 20s call deadline). */
  @IsGoDuration({ min: '100ms', max: '15s' })
  UPSTREAM_TIMEOUT = '10s';

  /** GitHub without run details: how long to look for a dispatched run (by its argo_key run-name) before failing. */
  @IsGoDuration({ min: '1s', max: '1h' })
  GITHUB_RUN_LOOKUP_TIMEOUT = '2m';

  /**
   * Which namespaces may use which server: `jenkins/prod=release,ci; github/*=ci-*` (docs/build-trigger.md).
   * Unset: every server is open to every namespace.
   */
  @IsOptional()
  @IsString()
  NAMESPACE_SCOPES?: string;

  /** Filled by loadExtras: the default and named servers. */
  servers: ServerDirectory = { jenkins: new Map(), github: new Map(), gitlab: new Map() };

  /** Filled by loadExtras from NAMESPACE_SCOPES. */
  scopes = NamespaceScopes.unrestricted;

  loadExtras(source: EnvSource): string[] {
    const { servers, problems } = readServers(this, source);
    this.servers = servers;
    const scoped = NamespaceScopes.parse(this.NAMESPACE_SCOPES, {
      noun: 'server',
      configured: {
        jenkins: servers.jenkins.keys(),
        github: servers.github.keys(),
        gitlab: servers.gitlab.keys(),
      },
      normalize: upstreamId,
    });
    this.scopes = scoped.scopes;
    return [...problems, ...scoped.problems];
  }

  /** Every server's credentials: a Jenkins token is sent with its user (Basic), the others alone. */
  credentials(): Credential[] {
    const { jenkins, github, gitlab } = this.servers;
    return [
      ...[...jenkins.values()].map((s) => ({ secret: s.apiToken, user: s.user })),
      ...[...github.values()].map((s) => ({ secret: s.token })),
      ...[...gitlab.values()].flatMap((s) =>
        [s.token, s.triggerToken].flatMap((t) => (t ? [{ secret: t }] : [])),
      ),
    ];
  }
}
