/** A Kubernetes namespace name (RFC 1123 label). */
export const NAMESPACE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
export const NAMESPACE_MAX = 63;

/** Characters that survive the Argo Server's path handling in the discriminator segment. */
export const PATH_SAFE = /^[A-Za-z0-9._~-]*$/;
