import {
  DEFAULT_UPSTREAM,
  readUpstreams,
  type EnvSource,
  type SettingsRead,
  type UpstreamFamily,
  type UpstreamSettings,
} from '@app/plugin-kit';
import { urlSetting } from '@app/plugin-kit/config/settings-checks.js';

/** A CI system's servers: the default one (JENKINS_URL, ...) and the named ones (`JENKINS_<NAME>_URL`, ...). */
export function readServers<S extends { name: string }>(
  source: EnvSource,
  family: UpstreamFamily,
  read: (server: UpstreamSettings, problems: string[]) => S | undefined,
): SettingsRead<Map<string, S>> {
  const { upstreams, problems } = readUpstreams(source, family);
  const servers = new Map<string, S>();
  for (const upstream of upstreams.values()) {
    const server = read(upstream, problems);
    if (server) servers.set(server.name, server);
  }
  return { settings: servers, problems };
}

/**
 * A server's URL, without trailing slashes. The default server's (JENKINS_URL, GITHUB_API_URL, GITLAB_URL) is
 * checked by the env class already (`@IsHttpUrl()`), which reports a bad value once.
 */
export function serverUrl(
  server: UpstreamSettings,
  setting: string,
  url: string | undefined,
  problems: string[],
): string | undefined {
  if (url === undefined) return undefined;
  return urlSetting(server.variable(setting), url, problems, {
    checkedByEnvClass: server.name === DEFAULT_UPSTREAM,
  });
}
