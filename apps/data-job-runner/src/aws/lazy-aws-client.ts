import type { Redactor } from '@app/plugin-kit';
import type { awsClientConfig } from './aws-client-config.js';
import type { AwsConnection } from './aws-settings.js';

export type AwsClientConfig = ReturnType<typeof awsClientConfig>;

/**
 * An AWS SDK client made on the first call that needs it: the SDK package and the credential chain are imported
 * then, not when the data-job module loads its providers, so a sidecar that never calls AWS never loads them.
 * One after the other (concurrent dynamic imports race under Jest's ESM loader); a failed import is tried again.
 */
export function lazyAwsClient<S, C>(
  loadSdk: () => Promise<S>,
  make: (sdk: S, config: AwsClientConfig) => C,
  connection: AwsConnection,
  context: { timeoutMs: number; redactor: Redactor },
): () => Promise<{ sdk: S; client: C }> {
  let loading: Promise<{ sdk: S; client: C }> | undefined;
  return () => {
    loading ??= (async () => {
      const sdk = await loadSdk();
      const { awsClientConfig } = await import('./aws-client-config.js');
      return { sdk, client: make(sdk, awsClientConfig(connection, context.timeoutMs, context.redactor)) };
    })().catch((err: unknown) => {
      loading = undefined;
      throw err;
    });
    return loading;
  };
}
