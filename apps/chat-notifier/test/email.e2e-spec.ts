import { startEmailDemo, type EmailDemo } from '../demo/email.js';
import { describeProviderContract } from './provider-contract.js';
import { notify, outputs, startNotifier, type PluginFixture } from './support.js';

describeProviderContract({
  provider: 'email',
  outputs: ['id', 'thread'],
  body: { to: 'oncall@example.com', title: 'Build 7 passed', text: 'all green', status: 'succeeded' },
  // SMTP has no Retry-After: a 451 deferral is retried after the kit's first backoff.
  rateLimitRequeueMs: 5_000,
  restartSendsAgain: true,
  async start() {
    const demo = await startEmailDemo();
    return {
      env: demo.env,
      sent: () => demo.smtp.mails.length,
      rateLimitNextSend: () => demo.smtp.deferNext(),
      close: () => demo.close(),
    };
  },
  badCredential: {
    env: (env) => ({ SMTP_URL: env.SMTP_URL.replace(/:[^:@/]+@/, ':wrong-password-1234@') }),
    secrets: ['wrong-password-1234'],
    message:
      /^email: the relay refused the login: 535 5\.7\.8 Authentication credentials invalid: the admin checks the user and password in SMTP_URL$/,
  },
});

describe('email: HTML and text from one template, attachment, Message-ID, threads, STARTTLS', () => {
  let demo: EmailDemo;
  let f: PluginFixture;
  beforeAll(async () => {
    demo = await startEmailDemo();
    f = await startNotifier(demo.env);
  });
  afterAll(async () => {
    await f.close();
    await demo.close();
  });

  it('one mail over STARTTLS with both bodies, the attachment and a Message-ID from the execution key', async () => {
    const reply = await f.h.execute(
      notify('email', {
        to: 'oncall@example.com, lead@example.com',
        title: 'Nightly ETL failed',
        text: 'load <step> failed',
        status: 'failed',
        fields: [{ name: 'Attempt', value: '3' }],
        file: { filename: 'etl.log', content: 'line 1' },
      }),
    );
    expect(reply.body.node?.phase).toBe('Succeeded');
    const mail = demo.smtp.mails.at(-1)!;
    const id = outputs(reply.body).id;
    expect(id).toMatch(/^<argo-[0-9a-f]{40}@example\.com>$/);
    expect(mail).toMatchObject({
      tls: true,
      user: 'argo',
      from: 'argo@example.com',
      to: ['oncall@example.com', 'lead@example.com'],
    });
    expect(mail.headers['message-id']).toBe(id);
    expect(mail.headers.subject).toBe('Nightly ETL failed');
    expect(mail.raw).toContain('Content-Type: text/plain');
    expect(mail.raw).toContain('Content-Type: text/html');
    expect(mail.raw).toMatch(/filename=etl\.log/);
    expect(mail.raw).toContain('load &lt;step&gt; failed');
    expect(mail.raw).toContain('Attempt: 3');
  });

  it('a reply carries In-Reply-To and References; outputs keep the thread root', async () => {
    const first = outputs(
      (await f.h.execute(notify('email', { to: 'a@example.com', text: 'started' }))).body,
    );
    const second = outputs(
      (await f.h.execute(notify('email', { to: 'a@example.com', text: 'done', thread: first.id }))).body,
    );
    const mail = demo.smtp.mails.at(-1)!;
    expect(mail.headers['in-reply-to']).toBe(first.id);
    expect(mail.headers.references).toBe(first.id);
    expect(second.thread).toBe(first.id);
  });

  it('trusts the relay through SMTP_CA_FILE as well, the same CA in a file', async () => {
    const g = await startNotifier({ ...demo.env, SMTP_CA_PEM: '', SMTP_CA_FILE: demo.smtp.caFile });
    try {
      const reply = await g.h.execute(notify('email', { to: 'a@example.com', text: 'from a file' }));
      expect(reply.body.node?.phase).toBe('Succeeded');
      expect(demo.smtp.mails.at(-1)).toMatchObject({ tls: true, to: ['a@example.com'] });
    } finally {
      await g.close();
    }
  });

  it('stops at start-up on both CA settings, or on an SMTP_CA_PEM that holds no certificate', async () => {
    await expect(startNotifier({ ...demo.env, SMTP_CA_FILE: demo.smtp.caFile })).rejects.toThrow(
      'SMTP_CA_PEM: set it or SMTP_CA_FILE, not both',
    );
    await expect(startNotifier({ ...demo.env, SMTP_CA_PEM: demo.smtp.caFile })).rejects.toThrow(
      'SMTP_CA_PEM: must hold a PEM certificate (-----BEGIN CERTIFICATE----- … -----END CERTIFICATE-----)',
    );
  });

  it('a relay without a trusted certificate fails the step naming SMTP_CA_PEM and SMTP_CA_FILE', async () => {
    const g = await startNotifier({ ...demo.env, SMTP_CA_PEM: '' });
    try {
      const message = (await g.h.execute(notify('email', { to: 'a@example.com', text: 'x' }))).body.node
        ?.message;
      expect(message).toMatch(
        /^email: no TLS with the relay \(.*\): the admin checks the relay's certificate \(SMTP_CA_PEM or SMTP_CA_FILE\)/,
      );
    } finally {
      await g.close();
    }
  });
});
