import { looksSecret } from '@app/plugin-kit';

interface Secret {
  name: string;
  value: string;
}

export interface Leak {
  secret: string;
  where: string;
}

/**
 * Every secret value given to any plugin run of a suite (the agent token, env variables whose names look
 * secret, and Basic-auth pairs derived from them), searched for in every log line and reply the suite saw.
 * Texts are kept until `check()`, so a secret registered later (a rotated token) is searched for everywhere.
 */
export class SecretSweep {
  private readonly secrets = new Map<string, Secret>();
  private readonly collected: Array<{ where: string; text: string }> = [];
  readonly leaks: Leak[] = [];
  bytes = 0;

  /** Registers the secret-looking values of a sidecar env, and user:password pairs with the same prefix. */
  addEnv(env: Record<string, string | undefined>): void {
    for (const [name, value] of Object.entries(env)) {
      if (!value || !looksSecret(name)) continue;
      this.add(name, value);
      // `ARGO_TOKEN=Bearer <token>`: the credential alone is what would leak.
      const scheme = /^(Bearer|Basic|Token)\s+(.+)$/i.exec(value);
      if (scheme) this.add(`${name} (without "${scheme[1]}")`, scheme[2]);
    }
    for (const [name, user] of Object.entries(env)) {
      const prefix = /^(.*)_USER(NAME)?$/.exec(name)?.[1];
      if (!prefix || !user) continue;
      for (const [other, secret] of Object.entries(env))
        if (secret && other.startsWith(`${prefix}_`) && looksSecret(other)) {
          this.add(`base64(${name}:${other})`, Buffer.from(`${user}:${secret}`).toString('base64'));
          this.add(`${name}:${other}`, `${user}:${secret}`);
        }
    }
  }

  /** Registers a value in the forms it may be sent in: as given, trimmed, URL-encoded. */
  add(name: string, value: string): void {
    const trimmed = value.trim();
    const forms: Array<[string, string]> = [
      [name, value],
      [`${name} (trimmed)`, trimmed],
      [`${name} (URL-encoded)`, encodeURIComponent(trimmed)],
    ];
    // Values this short are not secrets anyone could recognise in text (and the kit does not mask them).
    for (const [label, form] of forms)
      if (form.length >= 8 && !this.secrets.has(form)) this.secrets.set(form, { name: label, value: form });
  }

  get size(): number {
    return this.secrets.size;
  }

  collect(where: string, text: string): void {
    this.bytes += Buffer.byteLength(text);
    this.collected.push({ where, text });
  }

  /** Searches everything collected for every secret registered; returns the leaks (also kept in `leaks`). */
  check(): Leak[] {
    this.leaks.length = 0;
    for (const { where, text } of this.collected)
      for (const { name, value } of this.secrets.values())
        if (text.includes(value)) this.leaks.push({ secret: name, where });
    return this.leaks;
  }

  summary(): string {
    return `${this.size} secret values × ${this.collected.length} texts (${(this.bytes / 1024 / 1024).toFixed(1)} MB of logs and replies), ${this.leaks.length} found`;
  }
}
