import { NamespaceScopes, Redactor, UpstreamError } from '@app/plugin-kit';
import { validatePluginConfig } from '@app/plugin-kit/config/plugin-config.js';
import { ServicenowStandIn, type SnUser } from '../../../stand-ins/servicenow/servicenow.stand-in.js';
import type { PostedRequest } from '../../approvals/approval-channel.js';
import { ServicenowApprovalConfig } from './servicenow-approval-config.dto.js';
import { correlationId, ServicenowApprovalChannels } from './servicenow-approval-channel.js';
import { readServicenowInstances } from './servicenow-settings.js';

const PASSWORD = 'sn-standin-argo-password-0001';
const TOKEN = 'sn-standin-oauth-access-token-0001';
const signal = new AbortController().signal;
const access = { scopes: NamespaceScopes.unrestricted, namespace: 'argo' };

describe('ServicenowApprovalChannel against the ServiceNow stand-in', () => {
  let sn: ServicenowStandIn;
  let alice: SnUser;
  let bob: SnUser;
  let mallory: SnUser;

  beforeAll(async () => {
    sn = await new ServicenowStandIn().start();
    sn.addUser('argo.gate', { password: PASSWORD, token: TOKEN });
    alice = sn.addUser('alice');
    bob = sn.addUser('bob');
    mallory = sn.addUser('mallory', { password: 'mallory-password-000001' });
  });
  afterAll(() => sn.close());
  afterEach(() => (sn.pageLimit = 10_000));

  const channels = (auth: Record<string, string> = { APPROVALS_SERVICENOW_PASSWORD: PASSWORD }) =>
    new ServicenowApprovalChannels(
      readServicenowInstances({
        APPROVALS_SERVICENOW_URL: sn.url,
        APPROVALS_SERVICENOW_USER: 'argo.gate',
        ...auth,
      }).instances,
      new Redactor(),
      2000,
    );
  const channel = (block: object = {}, auth?: Record<string, string>) => {
    const result = validatePluginConfig(ServicenowApprovalConfig, {
      text: 'Deploy 1.4.2 to prod?\nChangelog: …',
      approvers: [alice.sys_id, bob.sys_id],
      ...block,
    });
    if (!result.ok) throw new Error(result.problems.join('; '));
    return channels(auth).channelFor(result.config, access);
  };
  const request = (marker: string, block: object = {}) =>
    channel(block).post({ text: 'Deploy 1.4.2 to prod?\nChangelog: …', marker }, signal);
  const changeOf = (posted: PostedRequest) => sn.change(posted.ref.sysId!)!;
  const state = (posted: PostedRequest) => channel().read(posted, signal);

  it('opens one change per marker, its correlation_id the hashed key: a restarted gate finds it', async () => {
    const first = await request('gate-once');
    expect(await request('gate-once')).toEqual({ ...first, found: true });
    const mine = sn.tables.change_request.filter((c) => c.correlation_id === correlationId('gate-once'));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      short_description: 'Deploy 1.4.2 to prod?',
      type: 'normal',
      sys_created_by: 'argo.gate',
    });
    expect(first).toMatchObject({ ref: { number: mine[0]!.number }, author: 'argo.gate', found: false });
  });

  it("never adopts a change someone else opened with the gate's correlation_id, on any page", async () => {
    sn.pageLimit = 1;
    for (let i = 0; i < 3; i++) sn.open(mallory, { correlation_id: correlationId('gate-forged') });
    const posted = await request('gate-forged');
    expect(changeOf(posted).sys_created_by).toBe('argo.gate');
    expect(await request('gate-forged')).toEqual({ ...posted, found: true });
  });

  it("approval records are answers: an approval counts once the change's approval is approved, a rejection at once", async () => {
    const posted = await request('gate-answers');
    const change = changeOf(posted);
    sn.requestApproval(change, [alice, bob]);
    expect(await state(posted)).toEqual({ kind: 'present', answers: [] });
    sn.answer(change, alice, 'approved');
    expect(await state(posted)).toEqual({
      kind: 'present',
      answers: [{ user: alice.sys_id, vote: 'approve', at: expect.any(Number), bot: false }],
    });
    sn.answer(change, bob, 'rejected');
    // Rolled up to rejected: alice's approval no longer counts, bob's rejection does.
    expect(await state(posted)).toEqual({
      kind: 'present',
      answers: [{ user: bob.sys_id, vote: 'reject', at: expect.any(Number), bot: false }],
    });
  });

  it('a cancelled change (state 4) reads as cancelled; a deleted one as deleted', async () => {
    const cancelled = await request('gate-cancel');
    sn.cancel(changeOf(cancelled));
    expect(await state(cancelled)).toEqual({
      kind: 'cancelled',
      detail: `change ${cancelled.ref.number} was cancelled`,
    });
    const deleted = await request('gate-delete');
    sn.remove(changeOf(deleted));
    expect(await state(deleted)).toEqual({ kind: 'deleted' });
  });

  it('waits on a named change, opening nothing', async () => {
    const named = sn.open(mallory, { short_description: 'Rotate keys' });
    const before = sn.tables.change_request.length;
    const posted = await request('gate-named', { change: named.number });
    expect(posted).toMatchObject({ ref: { sysId: named.sys_id, number: named.number }, found: false });
    expect(sn.tables.change_request).toHaveLength(before);
    await expect(request('gate-none', { change: 'CHG9999999' })).rejects.toThrow(
      'servicenow: change CHG9999999 does not exist or the account cannot read it',
    );
  });

  it("the decision is one work note of the gate's account, read back as concluded; another's copy is not", async () => {
    const posted = await request('gate-decided');
    const line = ':x: Rejected by bob at 2026-06-07T10:00:00.000Z\n- bob reject at 2026-06-07T09:59:00.000Z';
    sn.workNote(changeOf(posted), mallory, `${line}\n[argo-approval-decision]`);
    expect((await state(posted)).kind).toBe('present');
    await channel().conclude(posted, { decision: line, requestText: '' }, signal);
    await channel().conclude(posted, { decision: line, requestText: '' }, signal);
    const notes = sn.tables.sys_journal_field.filter(
      (n) => n.element_id === posted.ref.sysId && n.sys_created_by === 'argo.gate',
    );
    expect(notes).toHaveLength(1);
    expect(await state(posted)).toEqual({ kind: 'concluded', line });
  });

  it('an OAuth bearer token works as well as basic auth; a wrong one is 401 with the hint, never shown', async () => {
    const posted = await channel({}, { APPROVALS_SERVICENOW_TOKEN: TOKEN }).post(
      { text: 'x', marker: 'gate-oauth' },
      signal,
    );
    expect(changeOf(posted).sys_created_by).toBe('argo.gate');
    const wrong = 'sn-standin-wrong-password-0000';
    const err = (await channel({}, { APPROVALS_SERVICENOW_PASSWORD: wrong })
      .post({ text: 'x', marker: 'gate-401' }, signal)
      .catch((e: unknown) => e)) as UpstreamError;
    expect(err).toMatchObject({ status: 401, transient: false });
    expect(err.message).toContain('User is not authenticated (Required to provide Auth information)');
    expect(err.message).toContain('APPROVALS_SERVICENOW_PASSWORD');
    expect(err.message).not.toContain(wrong);
  });

  it('a 429 is transient with its Retry-After', async () => {
    const posted = await request('gate-limited');
    sn.rateLimit('GET', '/api/now/table/change_request/', 9);
    const err = (await state(posted).catch((e: unknown) => e)) as UpstreamError;
    expect(err).toMatchObject({ transient: true, status: 429, retryAfterMs: 9000 });
    expect(err.message).toContain('Too Many Requests');
  });

  it('declares no gate features', () => {
    expect([...channels().supports]).toEqual([]);
  });
});

describe('readServicenowInstances', () => {
  it('needs exactly one of the password and the token, and names variables, never values', () => {
    const both = readServicenowInstances({
      APPROVALS_SERVICENOW_URL: 'https://acme.service-now.com',
      APPROVALS_SERVICENOW_USER: 'argo.gate',
      APPROVALS_SERVICENOW_PASSWORD: 'secret-password-value',
      APPROVALS_SERVICENOW_TOKEN: 'secret-token-value-0001',
    });
    expect(both.instances.size).toBe(0);
    expect(both.problems).toEqual([
      'APPROVALS_SERVICENOW_PASSWORD: give it or APPROVALS_SERVICENOW_TOKEN, exactly one of them',
    ]);
    const none = readServicenowInstances({ APPROVALS_SERVICENOW_URL: 'https://acme.service-now.com' });
    expect(none.problems).toEqual(
      expect.arrayContaining(['APPROVALS_SERVICENOW_USER: is required with APPROVALS_SERVICENOW_URL']),
    );
  });
});
