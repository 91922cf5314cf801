import { readFileSync } from 'node:fs';
import { SmtpStandIn } from '../stand-ins/email/smtp.stand-in.js';

export interface EmailDemo {
  smtp: SmtpStandIn;
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * A local SMTP relay with STARTTLS (a test certificate the sidecar trusts through SMTP_CA_PEM, as a sidecar in an
 * agent pod gets it: the PEM from a Secret, no file it could mount).
 */
export async function startEmailDemo(): Promise<EmailDemo> {
  const smtp = await new SmtpStandIn().start();
  return {
    smtp,
    env: {
      SMTP_URL: smtp.url,
      SMTP_FROM: 'Argo Workflows <argo@example.com>',
      SMTP_CA_PEM: readFileSync(smtp.caFile, 'utf8'),
    },
    close: () => smtp.close(),
  };
}
