/**
 * The key sent upstream with every build (Jenkins parameter ARGO_KEY, GitHub input argo_key, GitLab variable
 * ARGO_KEY). It is derived from the kit's execution key (workflow uid + template name + canonical body +
 * input parameters), so a restarted sidecar computes the same value and can find the build again.
 */
export function correlationKey(executionKey: string): string {
  return `argo-${executionKey.slice(0, 32)}`;
}

export const JENKINS_KEY_PARAMETER = 'ARGO_KEY';
export const GITHUB_KEY_INPUT = 'argo_key';
export const GITLAB_KEY_VARIABLE = 'ARGO_KEY';
