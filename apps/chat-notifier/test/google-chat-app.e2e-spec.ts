import { generateKeyPairSync } from 'node:crypto';
import { startGoogleChatDemo, type GoogleChatDemo } from '../demo/google-chat.js';
import { describeProviderContract } from './provider-contract.js';
import { notify, outputs, startNotifier, type PluginFixture } from './support.js';

const SPACE = 'spaces/AAAAreleases';

/** A key file like the demo app's, but with another private key: the token endpoint refuses its signature. */
function otherKeyFile(env: Record<string, string>): { json: string; pemBody: string } {
  const key = JSON.parse(env.GOOGLE_CHAT_SERVICE_ACCOUNT_JSON) as Record<string, string>;
  const pem = generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();
  const pemBody = pem
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith('-----'))
    .join('');
  return { json: JSON.stringify({ ...key, private_key: pem }), pemBody };
}

let wrongKey: { json: string; pemBody: string } | undefined;

describeProviderContract({
  provider: 'googleChat',
  outputs: ['id', 'thread', 'space'],
  body: { space: SPACE, text: 'Build 7 passed', status: 'succeeded', title: 'Build 7' },
  // Google sends no Retry-After: the kit's first backoff.
  rateLimitRequeueMs: 5_000,
  async start() {
    const demo = await startGoogleChatDemo();
    return {
      env: demo.env,
      sent: () => demo.chat.in(demo.space).length,
      rateLimitNextSend: () => demo.chat.rateLimitNext(),
      close: () => demo.close(),
    };
  },
  badCredential: {
    env: (env) => {
      wrongKey = otherKeyFile(env);
      return { GOOGLE_CHAT_SERVICE_ACCOUNT_JSON: wrongKey.json };
    },
    get secrets() {
      return wrongKey ? [wrongKey.pemBody, ...wrongKey.pemBody.match(/.{64}/g)!] : ['unset'];
    },
    message:
      /^google oauth: POST \/token → 400 Bad Request: Invalid JWT Signature\. \(invalid_grant\): the token endpoint refused the service account key of argo-notifier@argo-demo-project\.iam\.gserviceaccount\.com \(a deleted or disabled key, or the wrong file\); the admin checks GOOGLE_CHAT_SERVICE_ACCOUNT_JSON$/,
  },
});

describe('google chat app: update in place, threads, one token, permissions', () => {
  let demo: GoogleChatDemo;
  let f: PluginFixture;
  beforeAll(async () => {
    demo = await startGoogleChatDemo();
    f = await startNotifier(demo.env);
  });
  afterAll(async () => {
    await f.close();
    await demo.close();
  });

  it('creates under a client-assigned ID, then updates the same message: text and card replaced, cleared when left out', async () => {
    const created = outputs(
      (await f.h.execute(notify('googleChat', { space: SPACE, text: 'deploying', status: 'running' }))).body,
    );
    const before = demo.chat.in(demo.space).length;
    const message = demo.chat.in(demo.space).find((m) => m.name === created.id)!;
    expect(message.clientAssignedMessageId).toMatch(/^client-[0-9a-f]{56}$/);
    expect(message.cardsV2).toHaveLength(1);
    expect(created).toEqual({ id: message.name, thread: message.thread.name, space: SPACE });

    const updated = await f.h.execute(notify('googleChat', { update: created.id, text: 'deployed' }));
    expect(updated.body.node?.phase).toBe('Succeeded');
    expect(updated.body.node?.message).toBe(`updated ${created.id} (Chat app)`);
    expect(outputs(updated.body)).toEqual(created);
    expect(demo.chat.in(demo.space)).toHaveLength(before);
    expect(message.text).toBe('deployed');
    expect(message.cardsV2).toBeUndefined();
    expect(message.lastUpdateTime).toBeDefined();
  });

  it('a thread key gathers the app messages into one thread', async () => {
    const ids = [];
    for (const text of ['started', 'tests passed'])
      ids.push(
        outputs((await f.h.execute(notify('googleChat', { space: SPACE, text, thread: 'rel-9' }))).body),
      );
    expect(ids[0]!.thread).toMatch(/^spaces\/AAAAreleases\/threads\//);
    expect(ids[1]!.thread).toBe(ids[0]!.thread);
    expect(ids[1]!.id).not.toBe(ids[0]!.id);
  });

  it('one access token for many calls (cached until shortly before it expires)', async () => {
    await f.h.execute(notify('googleChat', { space: SPACE, text: 'first' }));
    const before = demo.chat.oauth.requests;
    for (let i = 0; i < 3; i++)
      await f.h.execute(notify('googleChat', { space: SPACE, text: `cached ${i}` }));
    expect(demo.chat.oauth.requests).toBe(before);
    expect(demo.chat.oauth.tokens.size).toBeGreaterThan(0);
  });

  it('a token the API no longer accepts: Failed with a hint, then forgotten: the next step gets a new one', async () => {
    await f.h.execute(notify('googleChat', { space: SPACE, text: 'before' }));
    demo.chat.oauth.tokens.clear();
    const refused = await f.h.execute(notify('googleChat', { space: SPACE, text: 'revoked' }));
    expect(refused.body.node?.message).toMatch(
      /→ 401 Unauthorized: Request had invalid authentication credentials\..* \(UNAUTHENTICATED\): the Chat API refused the token of argo-notifier@argo-demo-project\.iam\.gserviceaccount\.com .*; the admin checks GOOGLE_CHAT_SERVICE_ACCOUNT_JSON$/,
    );
    const after = await f.h.execute(notify('googleChat', { space: SPACE, text: 'renewed' }));
    expect(after.body.node?.phase).toBe('Succeeded');
    expect(demo.chat.oauth.tokens.size).toBe(1);
  });

  it('a space the app was not added to: Failed with the hint to add it', async () => {
    demo.chat.addSpace('AAAAelsewhere');
    const reply = await f.h.execute(notify('googleChat', { space: 'spaces/AAAAelsewhere', text: 'x' }));
    expect(reply.body.node?.phase).toBe('Failed');
    expect(reply.body.node?.message).toBe(
      "google chat: POST /v1/spaces/AAAAelsewhere/messages → 403 Forbidden: The caller does not have permission (PERMISSION_DENIED): the Chat app argo-notifier@argo-demo-project.iam.gserviceaccount.com may not post in spaces/AAAAelsewhere: add the app to the space (or the service account is not the Chat app's); the admin checks GOOGLE_CHAT_SERVICE_ACCOUNT_JSON",
    );
  });

  it('an update of a message that does not exist: Failed, NOT_FOUND with a hint', async () => {
    const reply = await f.h.execute(
      notify('googleChat', { update: `${SPACE}/messages/gone.gone`, text: 'x' }),
    );
    expect(reply.body.node?.message).toBe(
      `google chat: PATCH /v1/${SPACE}/messages/gone.gone → 404 Not Found: Message not found. (NOT_FOUND): message ${SPACE}/messages/gone.gone does not exist (deleted?) or was not sent by this app`,
    );
  });

  it('resource names are checked segment by segment: no . or .. segment reaches the Chat API with the app token', async () => {
    const calls = demo.chat.server.calls.length;
    for (const update of [
      `${SPACE}/messages/..`,
      `${SPACE}/messages/.`,
      `${SPACE}/messages/a..b`,
      `spaces/../messages/x`,
    ])
      expect((await f.h.execute(notify('googleChat', { update, text: 'x' }))).body.node?.message).toMatch(
        /^notify: invalid config: googleChat\.update: must be a message name such as spaces\/AAAAbCdEfGh\/messages\/…/,
      );
    expect(
      (await f.h.execute(notify('googleChat', { space: SPACE, thread: `${SPACE}/threads/..`, text: 'x' })))
        .body.node?.message,
    ).toMatch(/^notify: invalid config: googleChat\.thread: /);
    expect(demo.chat.server.calls.length).toBe(calls);
  });

  it('inconsistent bodies are config errors naming the field', async () => {
    const message = async (body: Record<string, unknown>) =>
      (await f.h.execute(notify('googleChat', body))).body.node?.message;
    expect(await message({ space: SPACE, webhook: 'default', text: 'x' })).toBe(
      'notify: invalid config: googleChat.webhook: space and update post as the Chat app, not through a webhook; leave one of them out',
    );
    expect(await message({ update: `${SPACE}/messages/a.b`, thread: 'k', text: 'x' })).toBe(
      'notify: invalid config: googleChat.thread: an update keeps the message in its thread; leave thread out',
    );
    expect(await message({ space: 'spaces/AAAAother', update: `${SPACE}/messages/a.b`, text: 'x' })).toBe(
      `notify: invalid config: googleChat.update: the message ${SPACE}/messages/a.b is not in space spaces/AAAAother`,
    );
    expect(await message({ space: 'AAAAreleases', text: 'x' })).toMatch(
      /^notify: invalid config: googleChat\.space: must be a space name such as spaces\/AAAAbCdEfGh/,
    );
  });
});

describe('google chat app: an upstream that echoes the request in its error', () => {
  it('token endpoint and Chat API: the assertion, the access token and the key are masked', async () => {
    const demo = await startGoogleChatDemo();
    const f = await startNotifier(demo.env);
    const pemBody = demo.appKey.private_key.split('\n').filter((l) => l !== '' && !l.startsWith('-----'));
    try {
      demo.chat.hostile = { mode: 'echo', status: 400 };
      const atToken = await f.h.execute(notify('googleChat', { space: SPACE, text: 'one' }));
      expect(atToken.body.node?.message).toMatch(
        /^google oauth: POST \/token → 400 Bad Request: bad request /,
      );
      demo.chat.hostile = undefined;
      await f.h.execute(notify('googleChat', { space: SPACE, text: 'two' }));
      const [token] = [...demo.chat.oauth.tokens.keys()];
      demo.chat.hostile = { mode: 'echo', status: 400 };
      const atApi = await f.h.execute(notify('googleChat', { space: SPACE, text: 'three' }));
      expect(atApi.body.node?.message).toMatch(
        /^google chat: POST \/v1\/spaces\/AAAAreleases\/messages → 400 Bad Request: bad request /,
      );
      const everything = JSON.stringify([atToken.body, atApi.body]) + f.h.logText();
      for (const secret of [token!, ...pemBody]) expect(everything).not.toContain(secret);
      expect(everything).not.toMatch(/eyJhbGciOi/);
    } finally {
      await f.close();
      await demo.close();
    }
  });
});

describe('google chat app: admin settings', () => {
  it('NAMESPACE_SCOPES googleChat/app closes the Chat app to other namespaces; webhooks stay open', async () => {
    const demo = await startGoogleChatDemo();
    const f = await startNotifier({ ...demo.env, NAMESPACE_SCOPES: 'googleChat/app=team-*' });
    try {
      const closed = await f.h.execute(notify('googleChat', { space: SPACE, text: 'x' }));
      expect(closed.body.node?.message).toBe(
        'notify: invalid config: googleChat.space: no Google Chat app for namespace argo; the admin sets GOOGLE_CHAT_SERVICE_ACCOUNT_JSON (a webhook posts without it, but cannot update)',
      );
      const open = await f.h.execute(
        notify('googleChat', { space: SPACE, text: 'x' }, { workflow: { namespace: 'team-a' } }),
      );
      expect(open.body.node?.phase).toBe('Succeeded');
      const webhook = await f.h.execute(notify('googleChat', { text: 'x' }));
      expect(webhook.body.node?.phase).toBe('Succeeded');
      expect(demo.chat.in(demo.space)).toHaveLength(2);
    } finally {
      await f.close();
      await demo.close();
    }
  });

  it('without a service account, space is a config error naming the setting', async () => {
    const demo = await startGoogleChatDemo();
    const f = await startNotifier({ GOOGLE_CHAT_WEBHOOK_URL: demo.env.GOOGLE_CHAT_WEBHOOK_URL });
    try {
      const reply = await f.h.execute(notify('googleChat', { space: SPACE, text: 'x' }));
      expect(reply.body.node?.message).toMatch(/GOOGLE_CHAT_SERVICE_ACCOUNT_JSON/);
      expect(demo.chat.messages).toHaveLength(0);
    } finally {
      await f.close();
      await demo.close();
    }
  });
});
