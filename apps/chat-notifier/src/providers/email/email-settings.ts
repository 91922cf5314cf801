import {
  EnvBoolean,
  EnvTrim,
  readUpstreams,
  Secret,
  type EnvSource,
  type UpstreamKind,
} from '@app/plugin-kit';
import { IsBoolean, IsOptional, IsString } from '@app/plugin-kit/config/env-rules.js';
import { checkSettings, pairProblems } from '../../shared/destination-settings.js';
import type { EnvClass, SettingsRead } from '../provider-definition.js';

const trim = EnvTrim();

export const emailVariables = (Base: EnvClass) => {
  class EmailVariables extends Base {
    /** The SMTP relay, `smtp://user:password@host:587` (STARTTLS) or `smtps://…:465` (TLS). */
    @Secret()
    @trim
    @IsOptional()
    @IsString()
    SMTP_URL?: string;

    /** The sender, `Argo Workflows <argo@example.com>`; with SMTP_URL it enables email. */
    @IsOptional()
    @IsString()
    SMTP_FROM?: string;

    /** STARTTLS is required on smtp:// (a relay that does not offer it fails the step); false allows plain text. */
    @EnvBoolean()
    @IsBoolean()
    SMTP_REQUIRE_TLS = true;

    /** A PEM file of the CA that signed the relay's certificate, when it is not a public one (mounted from a ConfigMap). */
    @IsOptional()
    @IsString()
    SMTP_CA_FILE?: string;
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
  const { upstreams, problems, formerNames } = readUpstreams(source, SMTP_FAMILY);
  const servers = new Map<string, SmtpServer>();
  for (const [name, server] of upstreams) {
    const checked = checkSettings(server, { URL: smtpUrlProblem, FROM: fromProblem });
    problems.push(...checked.problems, ...pairProblems(server, ['URL', 'FROM'], checked.failed));
    const { URL: url, FROM: from } = server.values;
    if (url && from && checked.failed.size === 0) servers.set(name, { url, from });
  }
  return {
    settings: { servers, requireTls: env.SMTP_REQUIRE_TLS, caFile: env.SMTP_CA_FILE },
    problems,
    formerNames,
  };
}
