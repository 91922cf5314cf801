/**
 * Replaces secret values wherever they appear in text: log lines, node messages, output parameters.
 * Values are matched literally and in their JSON-escaped form (a secret with a quote or backslash is escaped
 * inside a JSON log line).
 */
export class Redactor {
  static readonly MASK = '[REDACTED]';
  private secrets: string[] = [];

  /** Values shorter than this are not treated as secrets (they would mask ordinary words). */
  constructor(private readonly minLength = 6) {}

  add(...values: Array<string | undefined>): this {
    for (const value of values) {
      if (!value || value.length < this.minLength) continue;
      for (const form of [value, JSON.stringify(value).slice(1, -1)]) {
        if (!this.secrets.includes(form)) this.secrets.push(form);
      }
    }
    // Longest first, so a secret that contains another is masked whole.
    this.secrets.sort((a, b) => b.length - a.length);
    return this;
  }

  /** Replaces the whole set; used when the agent's token file rotates. */
  replace(previous: string | undefined, next: string | undefined): void {
    if (previous)
      this.secrets = this.secrets.filter(
        (s) => s !== previous && s !== JSON.stringify(previous).slice(1, -1),
      );
    this.add(next);
  }

  get size(): number {
    return this.secrets.length;
  }

  redact(text: string): string {
    let out = text;
    for (const secret of this.secrets) {
      if (out.includes(secret)) out = out.split(secret).join(Redactor.MASK);
    }
    return out;
  }

  /** Deep copy with every string redacted. */
  redactValue<T>(value: T): T {
    if (this.secrets.length === 0) return value;
    return JSON.parse(this.redact(JSON.stringify(value))) as T;
  }
}

const SECRET_NAME = /(TOKEN|SECRET|PASSWORD|PASSWD|KEY|CREDENTIAL|PRIVATE)/i;

/** Env var names that look secret; their values are redacted even when no config class declares them. */
export function looksSecret(name: string): boolean {
  return SECRET_NAME.test(name);
}
