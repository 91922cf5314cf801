/**
 * Replaces secret values wherever they appear in text: log lines, node messages, output parameters.
 * Every form a credential is sent or echoed in is worked out here, once, from the value alone (`add`) or from a
 * user and password (`addLogin`):
 * - as given and trimmed (a Secret made with `--from-file` ends in a newline, the header carries it trimmed);
 * - percent-encoded (query strings, URL paths) and form-encoded (`+` for a space, `~!'()` encoded), each with
 *   upper- and lower-case hex;
 * - base64 and base64url of the value, and of the value inside any longer base64 text at each of the three byte
 *   alignments (the characters that depend on the value alone): a token in a Basic header or a JWT, a password
 *   in SMTP `AUTH PLAIN` (`\0user\0password`) or `AUTH LOGIN`, whatever the user or the text around it;
 * - for a login, `user:password` and its base64 (HTTP Basic) and `\0user\0password` (SMTP AUTH PLAIN) whole;
 * - for a PEM key, its base64 body in one piece and each line of it (a library quoting part of the key);
 * - each of these JSON-escaped (a quote or backslash inside a JSON log line).
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

  /**
   * A password and the user it is sent with: every form of the password, and the login as HTTP Basic
   * (`user:password`, whose base64 is the header) and SMTP AUTH PLAIN (`\0user\0password`, sent in base64)
   * carry it, so an echoed header or AUTH line is masked whole, user included.
   */
  addLogin(username: string | undefined, password: string | undefined): this {
    if (!password) return this;
    const user = username ?? '';
    const passwords = [...new Set([password, password.trim()])].filter(Boolean);
    return this.add(password, ...passwords.flatMap((p) => [`${user}:${p}`, `\0${user}\0${p}`]));
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

/** Every form of a value (see the class comment); forms shorter than `minLength` are left out. */
function secretForms(value: string | undefined, minLength: number): string[] {
  if (!value) return [];
  // Well-formed: a lone surrogate is sent as U+FFFD (and encodeURIComponent would throw on it).
  const texts = [...new Set([value, value.trim()])].filter(Boolean).map(wellFormed);
  const pieces = texts.flatMap((t) => [t, ...pemParts(t)]);
  const plain = [...new Set(pieces.flatMap((t) => [t, ...urlForms(t)]))];
  const escaped = plain.flatMap((v) => [v, JSON.stringify(v).slice(1, -1)]);
  const forms = new Set([...escaped, ...texts.flatMap((t) => base64Forms(Buffer.from(t)))]);
  return [...forms].filter((f) => f.length >= minLength);
}

/** In a query string or path (percent-encoded) and in a form body, with either case of hex digits. */
function urlForms(text: string): string[] {
  return [encodeURIComponent(text), formEncoded(text)].flatMap((f) => [
    f,
    f.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
  ]);
}

/**
 * base64 and base64url of `bytes` whole, and, for each of the three alignments it can have inside a longer
 * base64 text, the characters that depend on `bytes` alone: character c holds bits 6c…6c+5, and `bytes` fill
 * bits 8·shift … 8·(shift+n)−1 after `shift` unknown bytes.
 */
function base64Forms(bytes: Buffer): string[] {
  const forms = [bytes.toString('base64')];
  for (let shift = 0; shift < 3; shift++) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    forms.push(encoded.slice(Math.ceil((4 * shift) / 3), Math.floor((4 * (shift + bytes.length)) / 3)));
  }
  return forms.flatMap((f) => [f, f.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')]);
}

/** The base64 body of each PEM block in `text`, in one piece and line by line (lines shorter than 16 left out). */
function pemParts(text: string): string[] {
  const parts: string[] = [];
  for (const [, body] of text.matchAll(/-----BEGIN [A-Z ]+-----([\s\S]*?)-----END [A-Z ]+-----/g)) {
    const lines = body
      .split(/\\n|\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean);
    parts.push(lines.join(''), ...lines.filter((l) => l.length >= 16));
  }
  return parts;
}

/**
 * A value as a form body (`application/x-www-form-urlencoded`, what URLSearchParams writes) carries it: it encodes
 * more than encodeURIComponent (`~ ! ' ( )` as %7E %21 %27 %28 %29) and a space as `+`. Built on the native
 * encodeURIComponent because URLSearchParams' JS encoder, run over a long key (a service account's PEM, line by
 * line), got optimised by TurboFan at start-up, which alone left ~4 MiB more resident memory in an idle sidecar.
 */
export function formEncoded(value: string): string {
  // A lone surrogate is U+FFFD in a form body (encodeURIComponent would throw on it).
  return encodeURIComponent(wellFormed(value))
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** A lone surrogate replaced by U+FFFD, as a UTF-8 encoder writes it. */
function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

const SECRET_NAME = /(TOKEN|SECRET|PASSWORD|PASSWD|KEY|CREDENTIAL|PRIVATE)/i;

/** Env var names that look secret; their values are redacted even when no config class declares them. */
export function looksSecret(name: string): boolean {
  return SECRET_NAME.test(name);
}
