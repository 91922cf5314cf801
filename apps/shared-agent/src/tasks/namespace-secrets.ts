import { isTransientKubeError, KubeError, type KubeClient } from '@app/argo-agent';

/** retry.DefaultRetry: 5 tries, 10 ms apart (+10 % jitter), while the error is transient. */
const DEFAULT_RETRY = { steps: 5, delayMs: 10 };

/**
 * util.GetSecrets for one namespace: the key of a Secret of that namespace only (the task's own), with Argo's
 * retry and its messages (`secrets "x" not found`, `secret 'x' does not have the key 'k'`). Read on every
 * use, as Argo does: a rotated Secret is used at once.
 */
export function namespaceSecrets(client: KubeClient, namespace: string) {
  return async (name: string, key: string): Promise<Buffer> => {
    let secret: { data?: Record<string, string> } | undefined;
    for (let step = 1; ; step++) {
      try {
        secret = await client.get(
          `/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets/${encodeURIComponent(name)}`,
        );
        break;
      } catch (err) {
        if (!isTransientKubeError(err) || step >= DEFAULT_RETRY.steps)
          throw new Error(err instanceof KubeError ? err.apiMessage : (err as Error).message, { cause: err });
        await new Promise((r) => setTimeout(r, DEFAULT_RETRY.delayMs * (1 + 0.1 * Math.random())));
      }
    }
    const value = secret?.data?.[key];
    if (value === undefined) throw new Error(`secret '${name}' does not have the key '${key}'`);
    return Buffer.from(value, 'base64');
  };
}
