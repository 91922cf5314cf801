import { SmtpStandIn } from '../stand-ins/email/smtp.stand-in.js';

export interface EmailDemo {
  smtp: SmtpStandIn;
  env: Record<string, string>;
  close(): Promise<void>;
}

/** A local SMTP relay with STARTTLS (a test certificate the sidecar trusts through SMTP_CA_FILE). */
export async function startEmailDemo(): Promise<EmailDemo> {
  const smtp = await new SmtpStandIn().start();
  return {
    smtp,
    env: { SMTP_URL: smtp.url, SMTP_FROM: 'Argo Workflows <argo@example.com>', SMTP_CA_FILE: smtp.caFile },
    close: () => smtp.close(),
  };
}
