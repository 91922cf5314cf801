import {
  EnvBoolean,
  type EnvClass,
  type EnvSource,
  type SettingsRead,
  type UpstreamKind,
} from '@app/plugin-kit';
import { IsBoolean } from '@app/plugin-kit/config/env-rules.js';
import { OptionalCredential, OptionalSetting, readDestinations } from '../../shared/destination-settings.js';

export const emailVariables = (Base: EnvClass) => {
  class EmailVariables extends Base {
    /** The SMTP relay, `smtp://user:password@host:587` (STARTTLS) or `smtps://…:465` (TLS). */
    @OptionalCredential()
    SMTP_URL?: string;

    /** The sender, `Argo Workflows <argo@example.com>`; with SMTP_URL it enables email. */
    @OptionalSetting()
    SMTP_FROM?: string;

    /** STARTTLS is required on smtp:// (a relay that does not offer it fails the step); false allows plain text. */
    @EnvBoolean()
    @IsBoolean()
    SMTP_REQUIRE_TLS = true;

    /** A PEM file of the CA that signed the relay's certificate, when it is not a public one (where a volume can hold it). */
    @OptionalSetting()
    SMTP_CA_FILE?: string;

    /**
     * The PEM itself (from a Secret or ConfigMap key): an Argo plugin's sidecar has no volumes of its own, so
     * this is how it gets a private CA. One of SMTP_CA_PEM and SMTP_CA_FILE.
     */
    @OptionalSetting()
    SMTP_CA_PEM?: string;
  }
  return EmailVariables;
};
export type EmailVariables = InstanceType<ReturnType<typeof emailVariables>>;

export interface SmtpServer {
  /** smtp:// (STARTTLS, required unless SMTP_REQUIRE_TLS=false) or smtps:// (TLS from the start). */
  url: string;
  from: string;
}

export interface EmailSettings {
  /** Relay name → URL and sender. */
  servers: Map<string, SmtpServer>;
  requireTls: boolean;
  caFile?: string;
  caPem?: string;
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----/;

/** SMTP_CA_PEM and SMTP_CA_FILE: one of them, the PEM holding a certificate. */
function caProblems(env: EmailVariables): string[] {
  if (env.SMTP_CA_PEM && env.SMTP_CA_FILE) return ['SMTP_CA_PEM: set it or SMTP_CA_FILE, not both'];
  if (env.SMTP_CA_PEM && !PEM_CERTIFICATE.test(env.SMTP_CA_PEM))
    return [
      'SMTP_CA_PEM: must hold a PEM certificate (-----BEGIN CERTIFICATE----- … -----END CERTIFICATE-----)',
    ];
  return [];
}

/** `smtp[s]://[user:password@]host[:port]`. */
export function smtpUrlProblem(raw: string): string | undefined {
  try {
    const url = new URL(raw);
    return /^smtps?:$/.test(url.protocol) && url.hostname !== '' && url.pathname.replace(/\/$/, '') === ''
      ? undefined
      : 'must be smtp://[user:password@]host[:port] (STARTTLS) or smtps://… (TLS)';
  } catch {
    return 'must be smtp://[user:password@]host[:port] (STARTTLS) or smtps://… (TLS)';
  }
}

const fromProblem = (from: string) =>
  /<?[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+>?$/.test(from)
    ? undefined
    : 'must be an address such as "Argo <argo@example.com>"';

/** Named relays: `SMTP_<NAME>_URL` and `SMTP_<NAME>_FROM` (0.1.0: `SMTP_URL_<NAME>`, …), chosen with `server:`. */
export const SMTP_FAMILY = { prefix: 'SMTP', settings: ['URL', 'FROM'], formerSpelling: ['URL', 'FROM'] };

export const SMTP_SERVERS: UpstreamKind = {
  provider: 'email',
  scope: 'email',
  field: 'server',
  enable: 'SMTP_URL and SMTP_FROM',
  variablesFor: (name) => `SMTP_${name}_URL and SMTP_${name}_FROM`,
};

/** SMTP_URL and SMTP_FROM, for the default relay and each named one, in pairs. */
export function readEmailSettings(env: EmailVariables, source: EnvSource): SettingsRead<EmailSettings> {
  const { destinations, problems, formerNames } = readDestinations(
    source,
    SMTP_FAMILY,
    { URL: smtpUrlProblem, FROM: fromProblem },
    (values) => ({
      url: values.URL!,
      from: values.FROM!,
    }),
  );
  return {
    settings: {
      servers: destinations,
      requireTls: env.SMTP_REQUIRE_TLS,
      caFile: env.SMTP_CA_FILE,
      caPem: env.SMTP_CA_PEM,
    },
    problems: [...problems, ...caProblems(env)],
    formerNames,
  };
}
