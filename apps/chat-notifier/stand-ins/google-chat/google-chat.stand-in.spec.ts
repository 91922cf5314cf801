import { parseServiceAccount } from '../../src/providers/google-chat/service-account.js';
import { signAssertion } from '../../src/providers/google-chat/service-account-token.js';
import { GoogleChatStandIn, type ChatSpace } from './google-chat.stand-in.js';
import type { ServiceAccountKeyFile } from './google-oauth.js';

const BOT = 'https://www.googleapis.com/auth/chat.bot';

/** A Chat API reply: a message, or Google's error. */
interface Reply {
  name?: string;
  text?: string;
  cardsV2?: unknown;
  error?: { code: number; status: string; message: string };
}

describe('Google Chat stand-in: the Chat API as an app', () => {
  let chat: GoogleChatStandIn;
  let space: ChatSpace;
  let key: ServiceAccountKeyFile;
  let token: string;

  const tokenFor = async (file: ServiceAccountKeyFile, scope = BOT): Promise<Response> => {
    const account = parseServiceAccount(JSON.stringify(file)).account!;
    const assertion = signAssertion(account, scope, Math.floor(Date.now() / 1000));
    return fetch(`${chat.url}/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }),
    });
  };
  const call = async (method: string, path: string, body?: unknown, bearer = token) => {
    const res = await fetch(`${chat.url}/v1/${path}`, {
      method,
      headers: { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Reply };
  };

  beforeAll(async () => {
    chat = await new GoogleChatStandIn().start();
    space = chat.addSpace('AAAAspec').space;
    key = chat.addApp(space);
    token = ((await (await tokenFor(key)).json()) as { access_token: string }).access_token;
  });
  afterAll(() => chat.close());

  it('token endpoint: a valid assertion gets a bearer token; a wrong grant type or signature does not', async () => {
    expect(token).toMatch(/^ya29\./);
    const bad = await fetch(`${chat.url}/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&assertion=x',
    });
    expect([bad.status, await bad.json()]).toEqual([
      400,
      { error: 'unsupported_grant_type', error_description: 'Invalid grant_type: client_credentials' },
    ]);
    const other = chat.addApp();
    const forged = await tokenFor({ ...other, client_email: key.client_email });
    expect(await forged.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'Invalid JWT Signature.',
    });
  });

  it('no token: 401; a token without the chat.bot scope: 403; an app not in the space: 403', async () => {
    expect(
      (await call('POST', 'spaces/AAAAspec/messages', { text: 'x' }, 'ya29.nope')).body.error,
    ).toMatchObject({
      code: 401,
      status: 'UNAUTHENTICATED',
    });
    const other = chat.addApp();
    const narrow = (
      (await (await tokenFor(other, 'https://www.googleapis.com/auth/chat.messages.readonly')).json()) as {
        access_token: string;
      }
    ).access_token;
    expect((await call('POST', 'spaces/AAAAspec/messages', { text: 'x' }, narrow)).status).toBe(403);
    const outsider = ((await (await tokenFor(other)).json()) as { access_token: string }).access_token;
    expect((await call('POST', 'spaces/AAAAspec/messages', { text: 'x' }, outsider)).body).toEqual({
      error: { code: 403, message: 'The caller does not have permission', status: 'PERMISSION_DENIED' },
    });
  });

  it('client-assigned IDs: client- prefix, lower case, digits, hyphens, 63 characters; a second create is 409; GET by it', async () => {
    for (const id of ['custom-1', 'client-UPPER', `client-${'a'.repeat(57)}`])
      expect((await call('POST', `spaces/AAAAspec/messages?messageId=${id}`, { text: 'x' })).status).toBe(
        400,
      );
    const id = `client-${'a'.repeat(56)}`;
    const first = await call('POST', `spaces/AAAAspec/messages?messageId=${id}`, { text: 'one' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ clientAssignedMessageId: id, text: 'one', sender: { type: 'BOT' } });
    const again = await call('POST', `spaces/AAAAspec/messages?messageId=${id}`, { text: 'two' });
    expect(again.body.error).toMatchObject({ code: 409, status: 'ALREADY_EXISTS' });
    expect((await call('GET', `spaces/AAAAspec/messages/${id}`)).body.name).toBe(first.body.name);
    expect(chat.in(space)).toHaveLength(1);
  });

  it('update: a mask is required and known; named fields are replaced or cleared, others kept; only own messages', async () => {
    const card = [{ cardId: 'c', card: { sections: [] } }];
    const { name } = (await call('POST', 'spaces/AAAAspec/messages', { text: 'a', cardsV2: card })).body as {
      name: string;
    };
    expect((await call('PATCH', name, { text: 'b' })).status).toBe(400);
    expect((await call('PATCH', `${name}?updateMask=color`, { text: 'b' })).body.error?.status).toBe(
      'INVALID_ARGUMENT',
    );
    expect((await call('PATCH', `${name}?updateMask=text`, { text: 'b' })).body).toMatchObject({
      text: 'b',
      cardsV2: card,
    });
    const cleared = (await call('PATCH', `${name}?updateMask=text,cardsV2`, { text: 'c' })).body;
    expect(cleared.text).toBe('c');
    expect(cleared.cardsV2).toBeUndefined();
    expect(
      (await call('PATCH', 'spaces/AAAAspec/messages/none.none?updateMask=text', { text: 'c' })).status,
    ).toBe(404);
    const other = chat.addApp(space);
    const theirs = ((await (await tokenFor(other)).json()) as { access_token: string }).access_token;
    expect((await call('PATCH', `${name}?updateMask=text`, { text: 'd' }, theirs)).body.error).toMatchObject({
      code: 403,
      status: 'PERMISSION_DENIED',
    });
  });
});
