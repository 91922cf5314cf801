import { upstreamKind } from '@app/plugin-kit';
import { defineDataJobProvider } from '../data-job-provider.js';
import { readSnowflake, SNOWFLAKE_FAMILY, snowflakeVariables } from './snowflake-settings.js';

/** Snowflake's SQL API v2: one SQL statement, run asynchronously, with key-pair authentication. */
export const snowflake = defineDataJobProvider({
  key: 'snowflake',
  label: 'Snowflake',
  variables: snowflakeVariables,
  prefixes: ['SNOWFLAKE_'],
  enable: 'SNOWFLAKE_ACCOUNT+SNOWFLAKE_USER+SNOWFLAKE_PRIVATE_KEY',
  scopeKinds: ['snowflake'],
  read: (_env, source) => readSnowflake(source),
  configured: (connections) => connections.size > 0,
  destinations: (connections) => ({ snowflake: connections.keys() }),
  credentials: (connections) =>
    [...connections.values()].flatMap((c) => [
      { secret: c.privateKeyPem },
      ...(c.passphrase ? [{ secret: c.passphrase }] : []),
    ]),
  upstreams: upstreamKind(
    'snowflake',
    'connection',
    SNOWFLAKE_FAMILY,
    (v) => `${v('ACCOUNT')}, ${v('USER')} and ${v('PRIVATE_KEY')}`,
  ),
  load: async () => (await import('./snowflake.provider.js')).snowflakeModule,
});
