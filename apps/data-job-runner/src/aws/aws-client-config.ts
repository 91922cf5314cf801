import { fromNodeProviderChain, fromTemporaryCredentials } from '@aws-sdk/credential-providers';
import type { Redactor } from '@app/plugin-kit';
import type { AwsConnection } from './aws-settings.js';
import { BoundedHttpHandler } from './bounded-http-handler.js';

/** The SDK's standard retry mode: throttling and 5xx are retried with its backoff, 3 attempts in all. */
const MAX_ATTEMPTS = 3;
const ROLE_SESSION = 'argo-data-job';

interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  expiration?: Date;
}

/** Credentials the SDK resolves (web identity, an assumed role) are masked like the ones the admin gave. */
function masked(provider: () => Promise<AwsCredentials>, redactor: Redactor): () => Promise<AwsCredentials> {
  return async () => {
    const credentials = await provider();
    redactor.add(credentials.secretAccessKey, credentials.sessionToken);
    return credentials;
  };
}

/**
 * Loaded with the first AWS call, like the SDK clients (the credential providers are part of the SDK).
 * The configuration every AWS client of the runner is made with: the region, an endpoint when the admin gave one,
 * the credentials (the admin's keys, else the SDK's default chain; then ROLE_ARN assumed through STS), the SDK's
 * standard retries and the bounded HTTP handler.
 */
export function awsClientConfig(connection: AwsConnection, timeoutMs: number, redactor: Redactor) {
  const clientConfig = { region: connection.region, requestHandler: new BoundedHttpHandler(timeoutMs) };
  const base = connection.keys ? async () => connection.keys! : fromNodeProviderChain({ clientConfig });
  const credentials = connection.roleArn
    ? fromTemporaryCredentials({
        masterCredentials: base,
        params: {
          RoleArn: connection.roleArn,
          RoleSessionName: ROLE_SESSION,
          ExternalId: connection.externalId,
        },
        clientConfig,
      })
    : base;
  return {
    region: connection.region,
    endpoint: connection.endpoint,
    credentials: masked(credentials, redactor),
    maxAttempts: MAX_ATTEMPTS,
    retryMode: 'standard',
    requestHandler: new BoundedHttpHandler(timeoutMs),
  };
}
