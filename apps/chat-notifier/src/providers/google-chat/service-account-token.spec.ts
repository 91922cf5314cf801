import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { Redactor, UpstreamError } from '@app/plugin-kit';
import { GoogleChatStandIn } from '../../../stand-ins/google-chat/google-chat.stand-in.js';
import { parseServiceAccount, type GoogleServiceAccount } from './service-account.js';
import { CHAT_BOT_SCOPE, ServiceAccountTokens, signAssertion } from './service-account-token.js';

const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;

describe('signAssertion', () => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const account: GoogleServiceAccount = {
    clientEmail: 'notifier@p.iam.gserviceaccount.com',
    keyId: 'k1',
    privateKeyPem: '',
    privateKey,
    tokenUri: 'https://oauth2.googleapis.com/token',
  };

  it('an RS256 JWT: iss, scope, aud the token endpoint, valid for an hour, signed with the key', () => {
    const jwt = signAssertion(account, CHAT_BOT_SCOPE, 1_700_000_000);
    const [header, claims, signature] = jwt.split('.');
    expect(decode(header!)).toEqual({ alg: 'RS256', typ: 'JWT', kid: 'k1' });
    expect(decode(claims!)).toEqual({
      iss: 'notifier@p.iam.gserviceaccount.com',
      scope: 'https://www.googleapis.com/auth/chat.bot',
      aud: 'https://oauth2.googleapis.com/token',
      iat: 1_700_000_000,
      exp: 1_700_003_600,
    });
    const signed = Buffer.from(`${header}.${claims}`);
    expect(verify('sha256', signed, createPublicKey(privateKey), Buffer.from(signature!, 'base64url'))).toBe(
      true,
    );
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey;
    expect(verify('sha256', signed, other, Buffer.from(signature!, 'base64url'))).toBe(false);
  });
});

describe('ServiceAccountTokens against the token endpoint stand-in', () => {
  let chat: GoogleChatStandIn;
  beforeAll(async () => {
    chat = await new GoogleChatStandIn().start();
  });
  afterAll(() => chat.close());

  const tokensFor = (json: unknown, now: () => number, redactor = new Redactor()) =>
    new ServiceAccountTokens(
      parseServiceAccount(JSON.stringify(json)).account!,
      CHAT_BOT_SCOPE,
      redactor,
      2_000,
      now,
    );

  it('one request for concurrent callers; the token is reused, renewed five minutes before it expires', async () => {
    // Tokens of 400 s: renewed after 100 s (the clock moves less than the endpoint's tolerance for iat).
    chat.oauth.tokenSeconds = 400;
    let now = Date.now();
    const tokens = tokensFor(chat.addApp(), () => now);
    const before = chat.oauth.requests;
    const first = await Promise.all([tokens.token(), tokens.token(), tokens.token()]);
    expect(new Set(first).size).toBe(1);
    expect(chat.oauth.requests - before).toBe(1);
    expect(chat.oauth.holder(`Bearer ${first[0]}`)?.scopes).toEqual([CHAT_BOT_SCOPE]);
    now += 90_000;
    expect(await tokens.token()).toBe(first[0]);
    now += 30_000;
    const renewed = await tokens.token();
    expect(renewed).not.toBe(first[0]);
    expect(chat.oauth.requests - before).toBe(2);
    tokens.forget();
    expect(await tokens.token()).not.toBe(renewed);
    chat.oauth.tokenSeconds = 3599;
  });

  it('registers the assertion and the token with the redactor', async () => {
    const redactor = new Redactor();
    const token = await tokensFor(chat.addApp(), Date.now, redactor).token();
    expect(redactor.redact(`Bearer ${token}`)).toBe('Bearer [REDACTED]');
    expect(redactor.redact(`assertion=${chat.oauth.lastAssertion}`)).toBe('assertion=[REDACTED]');
  });

  it('an assertion too far in the past is refused by the endpoint (exp checked)', async () => {
    const tokens = tokensFor(chat.addApp(), () => Date.now() - 2 * 3600_000);
    const err = (await tokens.token().catch((e: unknown) => e)) as UpstreamError;
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err.message).toMatch(
      /^google oauth: POST \/token → 400 Bad Request: Invalid JWT: Token must be a short-lived token/,
    );
    expect(err.message).toMatch(/the admin checks GOOGLE_CHAT_SERVICE_ACCOUNT_JSON$/);
  });

  it('a key for another audience is refused (aud checked)', async () => {
    const key = chat.addApp();
    const tokens = tokensFor({ ...key, token_uri: `${chat.url}/token?x=1` }, Date.now);
    await expect(tokens.token()).rejects.toThrow(/Failed audience check/);
  });
});
