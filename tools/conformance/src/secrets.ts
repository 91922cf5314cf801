/** A value that must never appear in a reply (from --secret-env, plus the agent's token). */
export interface SecretValue {
  name: string;
  value: string;
}

/** Shorter values would match by chance; they are reported as not checked. */
export const MIN_SECRET_LENGTH = 6;

/** The forms a value takes when it is echoed: as is, JSON-escaped, URL-encoded, base64. */
function forms(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1);
  return [...new Set([value, json, encodeURIComponent(value), Buffer.from(value).toString('base64')])];
}

export class SecretScanner {
  private readonly checked: Array<SecretValue & { forms: string[] }>;
  readonly tooShort: string[];

  constructor(secrets: SecretValue[]) {
    this.checked = secrets
      .filter((s) => s.value.length >= MIN_SECRET_LENGTH)
      .map((s) => ({ ...s, forms: forms(s.value) }));
    this.tooShort = secrets.filter((s) => s.value.length < MIN_SECRET_LENGTH).map((s) => s.name);
  }

  get names(): string[] {
    return this.checked.map((s) => s.name);
  }

  /** Names of the secrets found in `text`. */
  find(text: string): string[] {
    return this.checked.filter((s) => s.forms.some((f) => text.includes(f))).map((s) => s.name);
  }

  /** `text` with every secret replaced by `***NAME***`: evidence never repeats a secret. */
  mask(text: string): string {
    let out = text;
    for (const s of this.checked) for (const f of s.forms) out = out.split(f).join(`***${s.name}***`);
    return out;
  }
}
