import { httpUrlProblem, readUpstreams, type EnvSource, type UpstreamKind } from '@app/plugin-kit';
import { checkSettings, credentialProblem } from '../../shared/destination-settings.js';

export interface ServicenowInstance {
  /** The instance's root, `https://<instance>.service-now.com`. */
  url: string;
  /** The account's `user_name`: the creator of its changes and the author of its work notes. */
  user: string;
  /** Basic auth with `user`, or an OAuth bearer token of that account: exactly one. */
  password?: string;
  token?: string;
}

/**
 * Instances: `APPROVALS_SERVICENOW_URL`, `_USER` and `_PASSWORD` (basic auth) or `_TOKEN` (an OAuth access
 * token of that user) for the default one, `APPROVALS_SERVICENOW_<NAME>_…` for named ones, chosen with
 * `instance:`.
 */
export const SERVICENOW_FAMILY = {
  prefix: 'APPROVALS_SERVICENOW',
  settings: ['URL', 'USER', 'PASSWORD', 'TOKEN'],
};

export const SERVICENOW_INSTANCES: UpstreamKind = {
  provider: 'ServiceNow',
  scope: 'servicenow',
  field: 'instance',
  enable: 'APPROVALS_SERVICENOW_URL, APPROVALS_SERVICENOW_USER and APPROVALS_SERVICENOW_PASSWORD (or _TOKEN)',
  variablesFor: (name) =>
    `APPROVALS_SERVICENOW_${name}_URL, _USER and APPROVALS_SERVICENOW_${name}_PASSWORD (or _TOKEN)`,
};

const userProblem = (value: string) =>
  /^[\w.@-]{1,100}$/.test(value) ? undefined : 'must be a user_name (letters, digits, . _ @ -)';

export function readServicenowInstances(source: EnvSource): {
  instances: Map<string, ServicenowInstance>;
  problems: string[];
} {
  const { upstreams, problems } = readUpstreams(source, SERVICENOW_FAMILY);
  const instances = new Map<string, ServicenowInstance>();
  for (const [name, given] of upstreams) {
    const checked = checkSettings(given, {
      URL: httpUrlProblem,
      USER: userProblem,
      PASSWORD: credentialProblem,
      TOKEN: credentialProblem,
    });
    problems.push(...checked.problems);
    const { URL: url, USER: user, PASSWORD: password, TOKEN: token } = given.values;
    const set = SERVICENOW_FAMILY.settings.find((s) => given.values[s] !== undefined)!;
    for (const required of ['URL', 'USER'])
      if (given.values[required] === undefined)
        problems.push(`${given.variable(required)}: is required with ${given.variable(set)}`);
    if ((password === undefined) === (token === undefined))
      problems.push(
        `${given.variable('PASSWORD')}: give it or ${given.variable('TOKEN')}, exactly one of them`,
      );
    else if (url !== undefined && user !== undefined && checked.failed.size === 0)
      instances.set(name, {
        url: url.replace(/\/+$/, ''),
        user,
        ...(password !== undefined ? { password } : { token }),
      });
  }
  return { instances, problems };
}
