import { readFileSync } from 'node:fs';
import { EnvBoolean, EnvTransform, EnvTrim, Secret, type EnvExtras, type EnvSource } from '@app/plugin-kit';
import {
  IsBoolean,
  IsGoDuration,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
} from '@app/plugin-kit/config/env-rules.js';
import { NAMESPACE, NAMESPACE_MAX } from './names.js';

const trim = EnvTrim();
const SCHEME = /^(Bearer|Basic) +/;

/**
 * Admin configuration, named like the `argo` CLI's: where the Argo Server is, the token it accepts and how to
 * reach it over TLS, plus the namespaces workflow authors may send events to.
 */
export class ArgoEnv implements EnvExtras {
  /** `host:port` of the Argo Server, without a scheme (ARGO_SECURE picks https or http). */
  @trim
  @IsString()
  @Matches(/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?)(:\d{1,5})?$/, {
    message:
      'must be host:port without a scheme or path, e.g. argo-server.argo:2746 (ARGO_SECURE chooses https or http)',
  })
  ARGO_SERVER!: string;

  /** The token, as `Bearer <token>` (what `argo auth token` prints) or bare; kept without the scheme. */
  @Secret()
  @EnvTransform((value) => value.trim().replace(SCHEME, ''))
  @IsString()
  @IsNotEmpty()
  @Matches(/^\S+$/, {
    message: 'must be one token (`Bearer <token>` or the bare token) without spaces or line breaks',
  })
  ARGO_TOKEN!: string;

  /** https (true, the Argo Server's default) or plain http. */
  @EnvBoolean()
  @IsBoolean()
  ARGO_SECURE = true;

  /** Accept any server certificate (self-signed test servers). Prefer ARGO_CA_FILE. */
  @EnvBoolean()
  @IsBoolean()
  ARGO_INSECURE_SKIP_VERIFY = false;

  /** Path prefix the server is served under (`--basehref`, or an ingress path), e.g. `/argo/`. */
  @IsOptional()
  @trim
  @Matches(/^\/?([A-Za-z0-9._~-]+\/?)*$/, { message: 'must be a URL path such as /argo/' })
  ARGO_BASE_HREF?: string;

  /** PEM file of the CA that signed the server's certificate (a private CA). */
  @IsOptional()
  @IsString()
  ARGO_CA_FILE?: string;

  /** The same CA as PEM text, e.g. from a ConfigMap through configMapKeyRef (sidecars cannot mount volumes). */
  @IsOptional()
  @IsString()
  ARGO_CA_CERT?: string;

  /** Namespaces events may be sent to: a comma-separated list or `*`. Default: the workflow's own only. */
  @IsOptional()
  @trim
  @IsString()
  ARGO_EVENT_NAMESPACES?: string;

  /** Timeout of the POST; well below the kit's 20 s call deadline. */
  @IsGoDuration({ min: '100ms', max: '15s' })
  ARGO_REQUEST_TIMEOUT = '10s';

  /** `Bearer` unless ARGO_TOKEN said `Basic`. Filled by loadExtras. */
  authScheme: 'Bearer' | 'Basic' = 'Bearer';
  /** The CA certificates of ARGO_CA_FILE or ARGO_CA_CERT. */
  ca?: Buffer;
  /** Allowed namespaces; undefined = the workflow's own namespace only; '*' = any. */
  namespaces?: Set<string> | '*';

  loadExtras(source: EnvSource): string[] {
    const problems: string[] = [];
    if (/^\s*Basic +/.test(source.ARGO_TOKEN ?? '')) this.authScheme = 'Basic';
    problems.push(...this.loadCa());
    if (this.ARGO_INSECURE_SKIP_VERIFY && !this.ARGO_SECURE)
      problems.push(
        'ARGO_INSECURE_SKIP_VERIFY: is true but ARGO_SECURE is false (plain http has no certificates)',
      );
    const port = /:(\d+)$/.exec(this.ARGO_SERVER ?? '')?.[1];
    if (port && (Number(port) < 1 || Number(port) > 65535))
      problems.push(`ARGO_SERVER: port ${port} is out of range`);
    const list = this.ARGO_EVENT_NAMESPACES;
    if (list === '*') this.namespaces = '*';
    else if (list) {
      const names = list.split(',').map((n) => n.trim());
      for (const n of names)
        if (!NAMESPACE.test(n) || n.length > NAMESPACE_MAX)
          problems.push(`ARGO_EVENT_NAMESPACES: "${n}" is not a valid namespace name`);
      this.namespaces = new Set(names);
    }
    return problems;
  }

  private loadCa(): string[] {
    const name = this.ARGO_CA_FILE ? 'ARGO_CA_FILE' : this.ARGO_CA_CERT ? 'ARGO_CA_CERT' : undefined;
    if (!name) return [];
    const problems: string[] = [];
    if (this.ARGO_CA_FILE && this.ARGO_CA_CERT)
      problems.push('ARGO_CA_CERT: is set together with ARGO_CA_FILE; choose one');
    if (!this.ARGO_SECURE)
      problems.push(`${name}: is set but ARGO_SECURE is false (plain http has no certificates)`);
    if (this.ARGO_INSECURE_SKIP_VERIFY)
      problems.push(`${name}: is set together with ARGO_INSECURE_SKIP_VERIFY=true; choose one`);
    if (this.ARGO_CA_FILE) {
      try {
        this.ca = readFileSync(this.ARGO_CA_FILE);
      } catch (err) {
        return [
          ...problems,
          `ARGO_CA_FILE: cannot read ${this.ARGO_CA_FILE} (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
        ];
      }
    } else this.ca = Buffer.from(this.ARGO_CA_CERT!);
    if (!this.ca.includes('-----BEGIN CERTIFICATE-----')) problems.push(`${name}: holds no PEM certificate`);
    return problems;
  }

  /** `https://host:port/base` (no trailing slash). */
  get baseUrl(): string {
    const base = (this.ARGO_BASE_HREF ?? '').replace(/^\/?/, '/').replace(/\/+$/, '');
    return `${this.ARGO_SECURE ? 'https' : 'http'}://${this.ARGO_SERVER}${base}`;
  }
}
