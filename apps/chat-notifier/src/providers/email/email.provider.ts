import { readFileSync } from 'node:fs';
import { Injectable } from '@nestjs/common';
import nodemailer from 'nodemailer';
import type { ExecuteTemplateReply } from '@app/contract';
import {
  succeeded,
  UpstreamClients,
  UpstreamError,
  upstreamId,
  upstreamVariable,
  type ExecutionContext,
} from '@app/plugin-kit';
import { InjectProviderContext, type ProviderContext } from '@app/plugin-kit/providers/provider-context.js';
import { EmailConfig } from './email-block.dto.js';
import { clipMasked } from '@app/plugin-kit/upstream/error-detail.js';
import type { NotifierProvider, ProviderModule } from '../notifier-provider.js';
import { renderEmail } from './email-message.js';
import { SMTP_FAMILY, SMTP_SERVERS, type EmailSettings, type SmtpServer } from './email-settings.js';

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
  private readonly transports: UpstreamClients<SmtpServer, { transport: Transport; server: SmtpServer }>;

  constructor(@InjectProviderContext('email') private readonly context: ProviderContext<EmailSettings>) {
    const { timeoutMs, redactor } = context;
    const settings = context.settings;
    for (const server of settings.servers.values()) {
      const url = new URL(server.url);
      redactor.addLogin(decodeURIComponent(url.username), decodeURIComponent(url.password)).add(url.password);
    }
    this.transports = new UpstreamClients(SMTP_SERVERS, settings.servers, (server) => ({
      transport: createTransport(server, settings, timeoutMs),
      server,
    }));
  }

  async execute(ctx: ExecutionContext<EmailConfig, { messageId?: string }>): Promise<ExecuteTemplateReply> {
    const { config } = ctx;
    const name = upstreamId(config.server);
    // Checked on every call, cached client or not: NAMESPACE_SCOPES depends on the workflow.
    const { transport, server } = this.transports.get(config.server, {
      scopes: this.context.scopes,
      namespace: ctx.workflow.namespace,
    });
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

  /** SMTP 4xx and connection problems are transient; 5xx (and a failed login) are not, with a hint. */
  private upstreamError(err: SmtpError, name: string): UpstreamError {
    const variable = upstreamVariable(SMTP_FAMILY, name, 'URL');
    const reply = err.response ? `: ${clipMasked(err.response, 300)}` : '';
    if (err.code === 'EAUTH')
      return UpstreamError.permanent(
        `email: the relay refused the login${reply}: the admin checks the user and password in ${variable}`,
        { status: err.responseCode },
      );
    if (err.code === 'ETLS' || /STARTTLS|certificate|\bSSL\b|\bTLS\b/i.test(err.message))
      return UpstreamError.permanent(
        `email: no TLS with the relay (${err.message}): the admin checks the relay's certificate (SMTP_CA_PEM or SMTP_CA_FILE) or that it offers STARTTLS`,
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

/** A nodemailer transport for a relay: STARTTLS required on smtp:// unless SMTP_REQUIRE_TLS=false. */
function createTransport(server: SmtpServer, settings: EmailSettings, timeoutMs: number): Transport {
  const url = new URL(server.url);
  return nodemailer.createTransport({
    host: url.hostname,
    port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
    secure: url.protocol === 'smtps:',
    requireTLS: url.protocol === 'smtp:' && settings.requireTls,
    ...(url.username && {
      auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) },
    }),
    ...((settings.caPem ?? settings.caFile) && {
      tls: { ca: settings.caPem ?? readFileSync(settings.caFile!, 'utf8') },
    }),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    logger: false,
  });
}

/** What the definition's `load()` gives: the block class and the Nest provider. */
export const emailModule: ProviderModule<EmailConfig> = { block: EmailConfig, provider: EmailProvider };
