import { readFileSync } from 'node:fs';
import { Injectable } from '@nestjs/common';
import nodemailer from 'nodemailer';
import type { ExecuteTemplateReply } from '@app/contract';
import { parseDuration } from '@app/contract';
import { Redactor, succeeded, UpstreamError, type ExecutionContext } from '@app/plugin-kit';
import { pickDestination, type DestinationKind } from '../../config/named-destinations.js';
import { NotifierEnv, type SmtpServer } from '../../config/notifier.env.js';
import type { EmailConfig } from './email-config.dto.js';
import type { NotifierProvider } from '../notifier-provider.js';
import { renderEmail } from './email-message.js';

const SERVERS: DestinationKind = {
  provider: 'email',
  scope: 'email',
  field: 'server',
  enable: 'SMTP_URL and SMTP_FROM',
  variablesFor: (name) => `SMTP_URL_${name} and SMTP_FROM_${name}`,
};

type Transport = ReturnType<typeof nodemailer.createTransport>;

/** An SMTP failure as nodemailer reports it: a code and, when the server answered, its reply. */
interface SmtpError extends Error {
  code?: string;
  responseCode?: number;
  response?: string;
}

/**
 * Email through the admin's SMTP relay with nodemailer: STARTTLS (required by default) or TLS, HTML and text
 * from one template, an attachment, and a Message-ID derived from the execution key, so a mail sent again
 * (after a sidecar restart, or when the relay's answer was lost: SMTP has no way to look) carries the same
 * Message-ID and is recognisable as the same mail. Within a sidecar's life the ledger sends it once.
 */
@Injectable()
export class EmailProvider implements NotifierProvider<EmailConfig> {
  private readonly transports = new Map<string, { transport: Transport; server: SmtpServer }>();
  private readonly timeoutMs: number;

  constructor(
    private readonly env: NotifierEnv,
    redactor: Redactor,
  ) {
    this.timeoutMs = parseDuration(env.NOTIFY_REQUEST_TIMEOUT);
    for (const server of env.smtp.values()) {
      const url = new URL(server.url);
      redactor.add(decodeURIComponent(url.password), url.password);
    }
  }

  async execute(ctx: ExecutionContext<EmailConfig, { messageId?: string }>): Promise<ExecuteTemplateReply> {
    const { config } = ctx;
    const name = (config.server ?? 'default').toLowerCase();
    const { transport, server } = this.transport(config.server, ctx.workflow.namespace);
    const domain = /@([^\s<>@]+)>?\s*$/.exec(server.from)?.[1] ?? 'localhost';
    const messageId = `<argo-${ctx.key.slice(0, 40)}@${domain}>`;
    if (!ctx.state.get()?.messageId) {
      const content = renderEmail(config, ctx.workflow);
      try {
        await transport.sendMail({
          from: server.from,
          to: config.to,
          ...(config.cc && { cc: config.cc }),
          subject: content.subject,
          text: content.text,
          html: content.html,
          messageId,
          ...(config.thread && { inReplyTo: config.thread, references: [config.thread] }),
          ...(config.file && {
            attachments: [{ filename: config.file.filename, content: config.file.content }],
          }),
        });
      } catch (err) {
        throw this.upstreamError(err as SmtpError, name);
      }
      await ctx.state.set({ messageId });
    }
    return succeeded(
      { id: messageId, thread: config.thread ?? messageId },
      `mailed ${messageId} to ${config.to.join(', ')}${config.file ? ` with file ${config.file.filename}` : ''}`,
    );
  }

  private transport(
    requested: string | undefined,
    namespace: string,
  ): { transport: Transport; server: SmtpServer } {
    // Checked on every call, cached client or not: NAMESPACE_SCOPES depends on the workflow.
    const server = pickDestination(SERVERS, this.env.smtp, requested, {
      scopes: this.env.scopes,
      namespace,
    });
    const name = (requested ?? 'default').toLowerCase();
    let entry = this.transports.get(name);
    if (!entry) {
      const url = new URL(server.url);
      const transport = nodemailer.createTransport({
        host: url.hostname,
        port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
        secure: url.protocol === 'smtps:',
        requireTLS: url.protocol === 'smtp:' && this.env.SMTP_REQUIRE_TLS,
        ...(url.username && {
          auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) },
        }),
        ...(this.env.SMTP_CA_FILE && { tls: { ca: readFileSync(this.env.SMTP_CA_FILE, 'utf8') } }),
        connectionTimeout: this.timeoutMs,
        greetingTimeout: this.timeoutMs,
        socketTimeout: this.timeoutMs,
        logger: false,
      });
      entry = { transport, server };
      this.transports.set(name, entry);
    }
    return entry;
  }

  /** SMTP 4xx and connection problems are transient; 5xx (and a failed login) are not, with a hint. */
  private upstreamError(err: SmtpError, name: string): UpstreamError {
    const variable = name === 'default' ? 'SMTP_URL' : `SMTP_URL_${name.toUpperCase()}`;
    const reply = err.response ? `: ${err.response.slice(0, 300)}` : '';
    if (err.code === 'EAUTH')
      return UpstreamError.permanent(
        `email: the relay refused the login${reply}: the admin checks the user and password in ${variable}`,
        { status: err.responseCode },
      );
    if (err.code === 'ETLS' || /STARTTLS|certificate|\bSSL\b|\bTLS\b/i.test(err.message))
      return UpstreamError.permanent(
        `email: no TLS with the relay (${err.message}): the admin checks the relay's certificate (SMTP_CA_FILE) or that it offers STARTTLS`,
      );
    const code = err.responseCode;
    if (code !== undefined && code >= 500)
      return UpstreamError.permanent(`email: the relay refused the mail (${code})${reply}`, { status: code });
    return UpstreamError.transient(
      code !== undefined
        ? `email: the relay deferred the mail (${code})${reply}`
        : `email: ${err.code ?? 'error'}: ${err.message}`,
      // SMTP has no Retry-After: a deferral (4xx) is retried after the kit's backoff.
      { status: code },
    );
  }
}
