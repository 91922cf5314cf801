import type { AxiosInstance } from 'axios';
import type { Redactor } from '@app/plugin-kit';
import { createUpstreamClient } from '@app/plugin-kit/upstream/http-client.js';
import type { TeamsBot } from './teams-settings.js';
import { withHint } from '../../shared/upstream-hints.js';
import { replyFields } from '../../shared/reply-fields.js';

/** The audience of the Bot Framework connector. */
export const BOT_FRAMEWORK_SCOPE = 'https://api.botframework.com/.default';

/** A token is renewed this long before Entra ID says it expires (clock skew, a slow request). */
export const RENEW_BEFORE_MS = 5 * 60_000;

/** Entra ID's error body: `{error, error_description: "AADSTS…: … Trace ID: …", error_codes}`. */
function describe(data: unknown): string | undefined {
  const d = data as { error?: unknown; error_description?: unknown } | undefined;
  if (typeof d?.error !== 'string') return undefined;
  const first = typeof d.error_description === 'string' ? d.error_description.split(/\r?\n/)[0] : '';
  return first ? `${first} (${d.error})` : d.error;
}

/**
 * The bot's access token for the connector: OAuth 2.0 client credentials against Microsoft Entra ID
 * (`{login}/{tenant}/oauth2/v2.0/token`), kept until shortly before it expires; concurrent callers share
 * one request. The secret and every token are registered with the redactor before they are used.
 */
export class BotFrameworkToken {
  private readonly http: AxiosInstance;
  private cached?: { token: string; renewAt: number };
  private pending?: Promise<string>;

  constructor(
    private readonly bot: TeamsBot,
    loginUrl: string,
    timeoutMs: number,
    private readonly redactor: Redactor,
    private readonly now: () => number = Date.now,
  ) {
    // The redactor also masks it as the token request's form body carries it (`~`, common in Entra secrets, as %7E).
    redactor.add(bot.password);
    this.http = createUpstreamClient({
      upstream: 'teams bot login',
      baseURL: loginUrl,
      timeoutMs,
      describe: (response) => describe(response.data),
    });
  }

  async get(): Promise<string> {
    if (this.cached && this.now() < this.cached.renewAt) return this.cached.token;
    this.pending ??= this.fetch().finally(() => (this.pending = undefined));
    return this.pending;
  }

  /** Forget the token (the connector refused it): the next call asks for a new one. */
  drop(token: string): void {
    if (this.cached?.token === token) this.cached = undefined;
  }

  private async fetch(): Promise<string> {
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: this.bot.appId,
      client_secret: this.bot.password,
      scope: BOT_FRAMEWORK_SCOPE,
    });
    let data: { access_token?: unknown; expires_in?: unknown };
    try {
      ({ data } = await this.http.post(`/${encodeURIComponent(this.bot.tenant)}/oauth2/v2.0/token`, form));
    } catch (err) {
      throw withHint(err, {
        400: `Entra ID refused the bot's app: the admin checks TEAMS_BOT_APP_ID (the Azure Bot's Microsoft App ID) and TEAMS_BOT_TENANT_ID (set only for a single-tenant bot)`,
        401: `the bot's client secret was refused: the admin renews TEAMS_BOT_APP_PASSWORD (the secret's value, not its id; secrets expire)`,
      });
    }
    // Entra ID answers expires_in as a number; some proxies of it as text.
    const { access_token: token, expires_in: expiresIn } = replyFields(
      'teams bot login',
      'POST /oauth2/v2.0/token',
      { ...data, expires_in: Number(data?.expires_in) },
      { access_token: 'string', expires_in: 'number' },
    );
    this.redactor.add(token);
    this.cached = { token, renewAt: this.now() + Math.max(0, expiresIn * 1000 - RENEW_BEFORE_MS) };
    return token;
  }
}
