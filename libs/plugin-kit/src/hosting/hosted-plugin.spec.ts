import { IsOptional, IsString } from '../config/env-rules.js';
import type { Credential, EnvExtras, EnvSource } from '../config/env.js';
import { hostPlugin } from './hosted-plugin.js';

/** Named servers `LOGIN_<NAME>_USER` / `LOGIN_<NAME>_PASSWORD`, read beyond the declared variables. */
class LoginEnv implements EnvExtras {
  @IsOptional()
  @IsString()
  LOGIN_URL?: string;

  logins: Credential[] = [];

  loadExtras(source: EnvSource): string[] {
    for (const [name, value] of Object.entries(source)) {
      const server = /^LOGIN_([A-Z]+)_USER$/.exec(name)?.[1];
      if (server && value)
        this.logins.push({ user: value, secret: source[`LOGIN_${server}_PASSWORD`] ?? '' });
    }
    return [];
  }

  credentials(): Credential[] {
    return this.logins;
  }
}

describe('hostPlugin', () => {
  it("registers the credentials an env class declares, with their users, at start: a login's Basic and AUTH PLAIN forms are masked", () => {
    const hosted = hostPlugin(
      {
        name: 'login',
        key: 'login',
        port: 1,
        env: LoginEnv,
        load: () => Promise.reject(new Error('not loaded')),
      },
      {
        // The password's variable is not named like a secret: only credentials() makes it one.
        source: { LOGIN_PROD_USER: 'svc-user', LOGIN_PROD_PASSWORD: 'hunter2-but-longer' },
        shutdown: new AbortController().signal,
        logDestination: { write: () => undefined },
      },
    );
    const basic = Buffer.from('svc-user:hunter2-but-longer').toString('base64');
    const plain = Buffer.from('\0svc-user\0hunter2-but-longer').toString('base64');
    expect(hosted.redactor.redact(`Basic ${basic} / AUTH PLAIN ${plain} / hunter2-but-longer`)).toBe(
      'Basic [REDACTED] / AUTH PLAIN [REDACTED] / [REDACTED]',
    );
  });
});
