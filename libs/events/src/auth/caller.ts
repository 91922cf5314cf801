import type { TokenEntry } from './tokens-file.js';

const GROUP = 'argoproj.io';

/** An authenticated caller: the claims of its token and what its (emulated) RBAC allows. */
export class Caller {
  constructor(private readonly entry: TokenEntry) {}

  get subject(): string | undefined {
    return this.entry.subject;
  }
  get email(): string | undefined {
    return this.entry.email;
  }
  get preferredUsername(): string | undefined {
    return this.entry.preferredUsername;
  }

  /** The user name Kubernetes puts in a Forbidden message. */
  get user(): string {
    return this.entry.subject ?? 'system:anonymous';
  }

  can(permission: string, namespace?: string): boolean {
    const { permissions, namespaces } = this.entry;
    if (!permissions.includes('*') && !permissions.includes(permission)) return false;
    const clusterScoped = permission.endsWith(' clusterworkflowtemplates');
    return clusterScoped || !namespaces || namespaces.includes(namespace ?? '');
  }

  /**
   * Kubernetes' Forbidden message, e.g. `workflows.argoproj.io is forbidden: User "x" cannot create resource
   * "workflows" in API group "argoproj.io" in the namespace "argo"`.
   */
  forbidden(permission: string, namespace: string | undefined, name?: string): string {
    const [verb, resource] = permission.split(' ') as [string, string];
    const object = `${resource}.${GROUP}${name ? ` "${name}"` : ''}`;
    const scope = namespace ? `in the namespace "${namespace}"` : 'at the cluster scope';
    return `${object} is forbidden: User "${this.user}" cannot ${verb} resource "${resource}" in API group "${GROUP}" ${scope}`;
  }
}
