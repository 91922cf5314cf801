import type { EnvClass, EnvSource, SettingsRead, UpstreamKind } from '@app/plugin-kit';
import { IsHttpUrl } from '@app/plugin-kit/config/env-rules.js';
import { OptionalCredential, readDestinations } from '../../shared/destination-settings.js';

export const pagerDutyVariables = (Base: EnvClass) => {
  class PagerDutyVariables extends Base {
    /** The integration key (routing key) of a service's Events API v2 integration. */
    @OptionalCredential()
    PAGERDUTY_ROUTING_KEY?: string;

    /** Events API host: PagerDuty's own (EU accounts: https://events.eu.pagerduty.com), a proxy, or a stand-in. */
    @IsHttpUrl()
    PAGERDUTY_EVENTS_URL = 'https://events.pagerduty.com';
  }
  return PagerDutyVariables;
};
export type PagerDutyVariables = InstanceType<ReturnType<typeof pagerDutyVariables>>;

export interface PagerDutySettings {
  /** Service name → routing key. */
  services: Map<string, string>;
  eventsUrl: string;
}

/** Named services: `PAGERDUTY_<NAME>_ROUTING_KEY` (0.1.0: `PAGERDUTY_ROUTING_KEY_<NAME>`), chosen with `service:`. */
const FAMILY = { prefix: 'PAGERDUTY', settings: ['ROUTING_KEY'], formerSpelling: ['ROUTING_KEY'] };

export const PAGERDUTY_SERVICES: UpstreamKind = {
  provider: 'PagerDuty',
  scope: 'pagerduty',
  field: 'service',
  enable: 'PAGERDUTY_ROUTING_KEY',
  variablesFor: (name) => `PAGERDUTY_${name}_ROUTING_KEY`,
};

export function readPagerDutySettings(
  env: PagerDutyVariables,
  source: EnvSource,
): SettingsRead<PagerDutySettings> {
  const { destinations, problems, formerNames } = readDestinations(
    source,
    FAMILY,
    {
      ROUTING_KEY: (key) =>
        /^[A-Za-z0-9]{32}$/.test(key) ? undefined : 'must be a 32-character integration key (Events API v2)',
    },
    (values) => values.ROUTING_KEY!,
  );
  return { settings: { services: destinations, eventsUrl: env.PAGERDUTY_EVENTS_URL }, problems, formerNames };
}
