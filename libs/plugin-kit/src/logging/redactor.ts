/**
 * Replaces secret values wherever they appear in text: log lines, node messages, output parameters.
 * A value is held in every form it may be sent or echoed in: as given, trimmed (a Secret made with
 * `--from-file` ends in a newline, the header carries the trimmed value), URL-encoded (query strings, and form
 * bodies, which encode more) and JSON-escaped (a secret with a quote or backslash inside a JSON log line). `addBasic` adds the
 * `Basic` credentials of a user and password: `base64(user:password)` and the decoded `user:password`.
 */
export class Redactor {
  static readonly MASK = '[REDACTED]';
  private secrets: string[] = [];
  /** The values added, and all their forms: a value sent again (a credential header on every request) costs a lookup. */
  private readonly values = new Set<string>();
  private readonly forms = new Set<string>();

  /** Values shorter than this are not treated as secrets (they would mask ordinary words). */
  constructor(private readonly minLength = 6) {}

  add(...values: Array<string | undefined>): this {
    let added = false;
    for (const value of values) {
      if (!value || this.values.has(value)) continue;
      this.values.add(value);
      for (const form of secretForms(value, this.minLength)) added = this.keep(form) || added;
    }
    // Longest first, so a secret that contains another is masked whole.
    if (added) this.secrets.sort((a, b) => b.length - a.length);
    return this;
  }

  /** Everything `other` masks, without working out the forms again (a collection's front and its plugins). */
  absorb(other: Redactor): this {
    let added = false;
    for (const value of other.values) this.values.add(value);
    for (const form of other.secrets) added = this.keep(form) || added;
    if (added) this.secrets.sort((a, b) => b.length - a.length);
    return this;
  }

  private keep(form: string): boolean {
    if (this.forms.has(form)) return false;
    this.forms.add(form);
    this.secrets.push(form);
    return true;
  }

  /** The credentials of HTTP Basic auth as sent (`base64(user:password)`) and decoded (`user:password`). */
  addBasic(username: string | undefined, password: string | undefined): this {
    if (!password) return this;
    const pair = `${username ?? ''}:${password}`;
    return this.add(password, pair, Buffer.from(pair).toString('base64'));
  }

  /** Replaces the whole set; used when the agent's token file rotates. */
  replace(previous: string | undefined, next: string | undefined): void {
    if (previous) {
      const old = new Set(secretForms(previous, this.minLength));
      this.secrets = this.secrets.filter((s) => !old.has(s));
      for (const form of old) this.forms.delete(form);
      this.values.delete(previous);
    }
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

/** A value as given, trimmed, URL-encoded, and each of those JSON-escaped; forms shorter than `minLength` are left out. */
function secretForms(value: string | undefined, minLength: number): string[] {
  if (!value) return [];
  const trimmed = value.trim();
  const plain = [
    ...new Set([
      value,
      trimmed,
      encodeURIComponent(trimmed),
      encodeURIComponent(value),
      formEncoded(trimmed),
      formEncoded(value),
    ]),
  ];
  const forms = new Set(plain.flatMap((v) => [v, JSON.stringify(v).slice(1, -1)]));
  return [...forms].filter((f) => f.length >= minLength);
}

/**
 * A value as a form body (`application/x-www-form-urlencoded`, what URLSearchParams writes) carries it: it encodes
 * more than encodeURIComponent (`~ ! ' ( )` as %7E %21 %27 %28 %29) and a space as `+`. Built on the native
 * encodeURIComponent because URLSearchParams' JS encoder, run over a long key (a service account's PEM, line by
 * line), got optimised by TurboFan at start-up, which alone left ~4 MiB more resident memory in an idle sidecar.
 */
export function formEncoded(value: string): string {
  // A lone surrogate is U+FFFD in a form body (encodeURIComponent would throw on it).
  const text = value.replace(
    /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    '\uFFFD',
  );
  return encodeURIComponent(text)
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

const SECRET_NAME = /(TOKEN|SECRET|PASSWORD|PASSWD|KEY|CREDENTIAL|PRIVATE)/i;

/** Env var names that look secret; their values are redacted even when no config class declares them. */
export function looksSecret(name: string): boolean {
  return SECRET_NAME.test(name);
}
