import { upstreamKind, type UpstreamFamily } from '@app/plugin-kit';
import {
  defineDataJobProvider,
  type DataJobProviderDefinition,
  type DataJobProviderModule,
} from '../providers/data-job-provider.js';
import { awsCredentials, awsVariables, readAws, type AwsConnection } from './aws-settings.js';

/**
 * The definition of an AWS backend: its connections are its family's `<PREFIX>_REGION`, ..., and
 * `<PREFIX>_<NAME>_REGION` for named ones (aws-settings.ts), enabled by the region, its credentials the SDK's chain or the admin's keys.
 */
export function defineAwsProvider<B extends object>(backend: {
  key: string;
  label: string;
  family: UpstreamFamily;
  load: () => Promise<DataJobProviderModule<AwsConnection, B>>;
}): DataJobProviderDefinition<object, AwsConnection, B> {
  const family = backend.family;
  return defineDataJobProvider<object, AwsConnection, B>({
    key: backend.key,
    label: backend.label,
    variables: awsVariables(family.prefix),
    prefixes: [`${family.prefix}_`],
    enable: `${family.prefix}_REGION`,
    scopeKinds: [backend.key],
    read: (_env, source) => readAws(source, family),
    configured: (connections) => connections.size > 0,
    destinations: (connections) => ({ [backend.key]: connections.keys() }),
    credentials: awsCredentials,
    upstreams: upstreamKind(backend.key, 'connection', family, (v) => v('REGION')),
    load: backend.load,
  });
}
