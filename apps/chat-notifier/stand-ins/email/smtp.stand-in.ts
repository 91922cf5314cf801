import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import { standInCertificate, standInHost } from '@app/local-agent';

/** Beside the sources in tests; from the repository root when bundled (npm run demo). */
const DATA = [
  join(import.meta.dirname, '../../test/data'),
  join(process.cwd(), 'apps/chat-notifier/test/data'),
].find((dir) => existsSync(join(dir, 'smtp-localhost.key')))!;
export const SMTP_TEST_CERT = join(DATA, 'smtp-localhost.crt');

export interface ReceivedMail {
  from: string;
  to: string[];
  /** Header name (lower case) → value, unfolded. */
  headers: Record<string, string>;
  raw: string;
  user?: string;
  tls: boolean;
}

type SmtpCallbackError = Error & { responseCode?: number };

function smtpError(code: number, text: string): SmtpCallbackError {
  return Object.assign(new Error(text), { responseCode: code });
}

/**
 * A local SMTP relay on the `smtp-server` package: STARTTLS on the plain port (smtps with `implicitTls`)
 * with the test certificate, AUTH PLAIN/LOGIN against one user (535 for anything else, as relays answer),
 * the SIZE limit, and scripted deferrals (451 4.7.1, what a greylisting or rate-limiting relay answers).
 * Every accepted mail is kept with its headers and raw source.
 */
export class SmtpStandIn {
  readonly mails: ReceivedMail[] = [];
  private deferrals = 0;
  private readonly server: SMTPServer;
  port = 0;
  private host = standInHost();
  /** The CA file a client trusts this relay's certificate through (SMTP_CA_FILE). */
  readonly caFile = standInCertificate()?.caFile ?? SMTP_TEST_CERT;

  constructor(
    readonly user = 'argo',
    readonly password = 'smtp-password-0000',
    implicitTls = false,
  ) {
    this.server = new SMTPServer({
      secure: implicitTls,
      key: readFileSync(standInCertificate()?.keyFile ?? join(DATA, 'smtp-localhost.key')),
      cert: readFileSync(standInCertificate()?.certFile ?? SMTP_TEST_CERT),
      authMethods: ['PLAIN', 'LOGIN'],
      size: 10 * 1024 * 1024,
      logger: false,
      disableReverseLookup: true,
      onAuth: (auth, _session, callback) => {
        if (auth.username === this.user && auth.password === this.password)
          return callback(null, { user: auth.username });
        callback(smtpError(535, '5.7.8 Authentication credentials invalid'));
      },
      onMailFrom: (_address, _session, callback) => {
        if (this.deferrals > 0) {
          this.deferrals--;
          return callback(smtpError(451, '4.7.1 Try again later'));
        }
        callback();
      },
      onData: (stream, session: SMTPServerSession, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          this.mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            headers: parseHeaders(raw),
            raw,
            user: session.user as string | undefined,
            tls: session.secure,
          });
          callback();
        });
      },
    });
  }

  /** `smtp://user:password@<stand-in host>:<port>`, for SMTP_URL. */
  get url(): string {
    return `smtp://${this.user}:${this.password}@${this.host}:${this.port}`;
  }

  async start(): Promise<this> {
    this.host = standInHost();
    await new Promise<void>((resolve) => this.server.listen(0, this.host, resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The next `times` mails are deferred with 451. */
  deferNext(times = 1): void {
    this.deferrals += times;
  }
}

function parseHeaders(raw: string): Record<string, string> {
  const head = raw.split(/\r?\n\r?\n/, 1)[0].replace(/\r?\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of head.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}
