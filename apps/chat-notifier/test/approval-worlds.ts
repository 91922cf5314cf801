import type { ApprovalScript } from '../stand-ins/approval-script.js';
import { DiscordStandIn } from '../stand-ins/discord/discord.stand-in.js';
import { GithubStandIn } from '../stand-ins/github/github.stand-in.js';
import { JiraStandIn } from '../stand-ins/jira/jira.stand-in.js';
import { ServicenowStandIn } from '../stand-ins/servicenow/servicenow.stand-in.js';
import { adfText } from '../src/providers/jira/jira-approval-channel.js';
import { MattermostStandIn } from '../stand-ins/mattermost/mattermost.stand-in.js';
import type { ProviderStandIn } from '@app/local-agent';

export type Person = 'alice' | 'bob';

/**
 * One provider's stand-in as the approval e2e table drives it: two people who may answer, what they can do to
 * a request (its id as the stand-in's scripted approver names it), and what the sidecar did there.
 */
export interface ApprovalWorld {
  /** The sidecar's variables for the stand-in. */
  env: Record<string, string>;
  /** The provider's block under `approve`, with `approvers` as a body writes them. */
  block(approvers: string[]): Record<string, unknown>;
  /** How a body names each person (`ref`), and how the `approvers` output does (`id`). */
  people: Record<Person, { ref: string; id: string }>;
  approve(request: string, who: Person): void;
  reject(request: string, who: Person): void;
  /**
   * The person answers in words, the keyword then `comment` (a reply in the request's thread, a comment on its
   * issue); undefined where answers carry no text (Discord reads reactions only).
   */
  answer?(request: string, who: Person, vote: 'approve' | 'reject', comment: string): void;
  /** The server hides users' emails from the gate's account (where the creator is looked up by email). */
  hideEmails?(): void;
  /** Takes the person's answers back: their reactions removed, their comments deleted. */
  withdraw(request: string, who: Person): void;
  /** Someone deletes the request. */
  remove(request: string): void;
  /** Someone closes the request without a decision (a ServiceNow change cancelled); where that exists. */
  cancel?(request: string): void;
  /**
   * A non-approver copies the gate's request, its marker included, into the same place with their own token
   * (through the API, as a forger would); answers the real request's id.
   */
  forge(): Promise<string>;
  script: ApprovalScript;
  /** Requests the sidecar posted (successful creating calls, counted at the stand-in). */
  posted(): number;
  /** Looks for an earlier request (a gate's first call on a sidecar). */
  searches(): number;
  /** Everything the request shows now (the post, or the issue with its comments); '' when it is gone. */
  shown(): string;
  /** What the `url` output looks like. */
  url: RegExp;
  close(): Promise<void>;
}

const TEXT = 'Deploy 1.4.2 to prod?';
const ok = (standIn: ProviderStandIn, method: string, path: RegExp) =>
  standIn.server.calls.filter((c) => c.method === method && path.test(c.path) && c.status < 300).length;

async function mattermostWorld(): Promise<ApprovalWorld> {
  const mm = await new MattermostStandIn().start();
  const token = 'mme2e0bot0token0approvals0000000';
  const bot = mm.addBot('argo-bot', token);
  const users = {
    alice: mm.state.addUser('alice', false, 'Alice@example.com'),
    bob: mm.state.addUser('bob', false, 'bob@example.com'),
  };
  const mallory = mm.state.addUser('mallory');
  mallory.tokens.add('mme2e0mallory0personal0token0000'); // a personal access token
  const team = mm.state.addTeam('eng', [bot, mallory, ...Object.values(users)]);
  const deploys = mm.state.addChannel(team, 'deploys', [bot, mallory, ...Object.values(users)]);
  return {
    env: { MATTERMOST_URL: mm.url, MATTERMOST_TOKEN: token },
    block: (approvers) => ({ channel: deploys.id, text: TEXT, approvers }),
    people: {
      alice: { ref: 'alice', id: users.alice.id },
      bob: { ref: '@bob', id: users.bob.id },
    },
    approve: (post, who) => mm.react(post, users[who], 'white_check_mark'),
    reject: (post, who) => mm.react(post, users[who], 'x'),
    answer: (post, who, vote, comment) => mm.reply(post, users[who], `${vote}: ${comment}`),
    hideEmails: () => {
      mm.state.showEmailAddress = false;
    },
    withdraw: (post, who) => {
      mm.unreact(post, users[who], 'white_check_mark');
      mm.unreact(post, users[who], 'x');
    },
    remove: (post) => mm.deletePost(post),
    forge: async () => {
      const real = mm.posts(deploys).find((p) => p.user_id === bot.id && !p.root_id)!;
      await sendJson(`${mm.url}/api/v4/posts`, 'Bearer mme2e0mallory0personal0token0000', {
        channel_id: deploys.id,
        message: real.message,
        props: real.props,
      });
      return real.id;
    },
    script: mm.script,
    posted: () => ok(mm, 'POST', /^\/api\/v4\/posts$/),
    searches: () => ok(mm, 'GET', /^\/api\/v4\/channels\/\w+\/posts$/),
    shown: () =>
      mm
        .posts(deploys)
        .filter((p) => !p.root_id && p.delete_at === 0)
        .map((p) => p.message)
        .join('\n'),
    url: new RegExp(`^${mm.url}/_redirect/pl/\\w{26}$`),
    close: () => mm.close(),
  };
}

async function discordWorld(): Promise<ApprovalWorld> {
  const discord = await new DiscordStandIn().start();
  const token = 'MTEwMDAwMDAwMDAwMDAwMDAwMg.stand-in.e2e-bot-token';
  const deploys = discord.addChannel();
  const argo = discord.addBot('argo', token, [deploys]);
  // Another bot in the channel, run by someone who is not an approver.
  const forgerToken = 'MTEwMDAwMDAwMDAwMDAwMDAwMw.stand-in.forger-bot-token';
  discord.addBot('deploy-helper', forgerToken, [deploys]);
  const users = { alice: discord.addUser('alice'), bob: discord.addUser('bob') };
  return {
    env: { DISCORD_BOT_TOKEN: token, DISCORD_API_URL: `${discord.url}/api/v10` },
    block: (approvers) => ({ channel: deploys.id, text: TEXT, approvers }),
    people: {
      alice: { ref: users.alice.id, id: users.alice.id },
      bob: { ref: `<@${users.bob.id}>`, id: users.bob.id },
    },
    approve: (message, who) => discord.react(message, users[who], '✅'),
    reject: (message, who) => discord.react(message, users[who], '❌'),
    withdraw: (message, who) => {
      discord.unreact(message, users[who], '✅');
      discord.unreact(message, users[who], '❌');
    },
    remove: (message) => discord.deleteMessage(message),
    forge: async () => {
      const real = discord.in(deploys.id).find((m) => m.author.id === argo.id)!;
      await sendJson(`${discord.url}/api/v10/channels/${deploys.id}/messages`, `Bot ${forgerToken}`, {
        content: real.content,
      });
      return real.id;
    },
    script: discord.script,
    posted: () => ok(discord, 'POST', /\/channels\/\d+\/messages$/),
    searches: () => ok(discord, 'GET', /\/channels\/\d+\/messages$/),
    shown: () =>
      discord
        .in(deploys.id)
        .map((m) => m.content)
        .join('\n'),
    url: new RegExp(`^https://discord\\.com/channels/\\d+/${deploys.id}/\\d+$`),
    close: () => discord.close(),
  };
}

async function githubWorld(): Promise<ApprovalWorld> {
  const gh = await new GithubStandIn().start();
  const token = 'ghp_standin0e2e0approvals0token0000000000';
  const deployer = gh.addUser('argo-deployer', { token });
  const users = { alice: gh.addUser('Alice'), bob: gh.addUser('bob') };
  const mallory = gh.addUser('mallory', { token: 'ghp_standin0e2e0mallory0token00000000000' });
  const repo = gh.addRepository('acme/deploys', [deployer, users.alice, mallory]);
  /** `acme/deploys#7` → the issue. */
  const issue = (request: string) => gh.issue(repo, request.split('#')[1]!);
  return {
    env: {
      APPROVALS_GITHUB_TOKEN: token,
      APPROVALS_GITHUB_REPOSITORIES: 'acme/deploys',
      APPROVALS_GITHUB_API_URL: gh.url,
    },
    block: (approvers) => ({ repository: 'acme/deploys', text: TEXT, approvers }),
    people: {
      alice: { ref: '@Alice', id: 'alice' },
      bob: { ref: 'bob', id: 'bob' },
    },
    approve: (request, who) => gh.comment(issue(request), users[who], '/approve'),
    reject: (request, who) => gh.comment(issue(request), users[who], '/deny'),
    answer: (request, who, vote, comment) =>
      gh.comment(issue(request), users[who], `${vote === 'approve' ? '/approve' : '/deny'} ${comment}`),
    withdraw: (request, who) => {
      const it = issue(request);
      for (const c of it.comments.filter((c) => c.user === users[who])) gh.deleteComment(it, c);
    },
    remove: (request) => gh.remove(issue(request)),
    forge: async () => {
      const real = repo.issues.find((i) => i.user === deployer)!;
      await sendJson(
        `${gh.url}/repos/acme/deploys/issues`,
        'Bearer ghp_standin0e2e0mallory0token00000000000',
        {
          title: real.title,
          body: real.body,
          labels: ['argo-approval'],
        },
      );
      return `acme/deploys#${real.number}`;
    },
    script: gh.script,
    posted: () => ok(gh, 'POST', /^\/repos\/acme\/deploys\/issues$/),
    searches: () => ok(gh, 'GET', /^\/repos\/acme\/deploys\/issues$/),
    shown: () =>
      repo.issues
        .filter((i) => !i.gone)
        .flatMap((i) => [i.body, ...i.comments.map((c) => c.body)])
        .join('\n'),
    url: /^https:\/\/github\.com\/acme\/deploys\/issues\/\d+$/,
    close: () => gh.close(),
  };
}

async function jiraWorld(): Promise<ApprovalWorld> {
  const jira = await new JiraStandIn().start();
  const token = 'ATATT3xFfGF0standin0e2e0jira0token000000';
  const argo = jira.addUser('712020:argo-deployer', { email: 'argo@example.com', token });
  const users = {
    alice: jira.addUser('5b10ac8d82e05b22cc7d4ea1'),
    bob: jira.addUser('5b10ac8d82e05b22cc7d4eb2'),
  };
  const mallory = jira.addUser('5b10ac8d82e05b22cc7d4ec3', {
    email: 'mallory@example.com',
    token: 'ATATT3xFfGF0standin0e2e0mallory0token000',
  });
  jira.addProject('OPS', [argo, mallory, ...Object.values(users)]);
  const issue = (key: string) => jira.issue(key)!;
  /** The person moves the issue to `status` (through another one when it is there already). */
  const move = (key: string, who: Person, status: string) => {
    if (issue(key).status.name === status) jira.transition(issue(key), users[who], 'In Progress');
    jira.transition(issue(key), users[who], status);
  };
  return {
    env: {
      APPROVALS_JIRA_URL: jira.url,
      APPROVALS_JIRA_EMAIL: 'argo@example.com',
      APPROVALS_JIRA_API_TOKEN: token,
      APPROVALS_JIRA_PROJECTS: 'OPS',
    },
    block: (approvers) => ({
      project: 'OPS',
      text: TEXT,
      approvers,
      approvedStatus: 'Approved',
      rejectedStatus: 'Rejected',
    }),
    people: {
      alice: { ref: users.alice.accountId, id: users.alice.accountId },
      bob: { ref: users.bob.accountId, id: users.bob.accountId },
    },
    approve: (key, who) => move(key, who, 'Approved'),
    reject: (key, who) => move(key, who, 'Rejected'),
    withdraw: (key, who) => jira.transition(issue(key), users[who], 'To Do'),
    remove: (key) => jira.remove(issue(key)),
    forge: async () => {
      const real = jira.issues.find((i) => i.creator === argo)!;
      await sendJson(
        `${jira.url}/rest/api/3/issue`,
        `Basic ${Buffer.from('mallory@example.com:ATATT3xFfGF0standin0e2e0mallory0token000').toString('base64')}`,
        {
          fields: {
            project: { key: 'OPS' },
            issuetype: { name: 'Task' },
            summary: real.summary,
            description: real.description,
            labels: real.labels,
          },
        },
      );
      return real.key;
    },
    script: jira.script,
    posted: () => ok(jira, 'POST', /^\/rest\/api\/3\/issue$/),
    searches: () => ok(jira, 'POST', /^\/rest\/api\/3\/search\/jql$/),
    shown: () =>
      jira.issues
        .filter((i) => !i.deleted)
        .flatMap((i) => [adfText(i.description), ...i.comments.map((c) => adfText(c.body))])
        .join('\n'),
    url: new RegExp(`^${jira.url}/browse/OPS-\\d+$`),
    close: () => jira.close(),
  };
}

async function servicenowWorld(): Promise<ApprovalWorld> {
  const sn = await new ServicenowStandIn().start();
  const password = 'sn-standin-e2e-gate-password-01';
  sn.addUser('argo.gate', { password });
  const users = { alice: sn.addUser('alice'), bob: sn.addUser('bob') };
  sn.addUser('mallory', { password: 'sn-standin-e2e-mallory-pass-01' });
  const change = (number: string) => sn.change(number)!;
  /** ServiceNow's approval rules ask alice and bob once a change is first answered. */
  const answer = (number: string, who: Person, state: 'approved' | 'rejected' | 'requested') => {
    const it = change(number);
    if (!sn.tables.sysapproval_approver.some((r) => r.sysapproval === it.sys_id))
      sn.requestApproval(it, Object.values(users));
    sn.answer(it, users[who], state);
  };
  return {
    env: {
      APPROVALS_SERVICENOW_URL: sn.url,
      APPROVALS_SERVICENOW_USER: 'argo.gate',
      APPROVALS_SERVICENOW_PASSWORD: password,
    },
    block: (approvers) => ({ text: TEXT, approvers }),
    people: {
      alice: { ref: users.alice.sys_id, id: users.alice.sys_id },
      bob: { ref: users.bob.sys_id, id: users.bob.sys_id },
    },
    approve: (number, who) => answer(number, who, 'approved'),
    reject: (number, who) => answer(number, who, 'rejected'),
    withdraw: (number, who) => answer(number, who, 'requested'),
    remove: (number) => sn.remove(change(number)),
    cancel: (number) => sn.cancel(change(number)),
    forge: async () => {
      const real = sn.tables.change_request.find((c) => c.sys_created_by === 'argo.gate')!;
      await sendJson(
        `${sn.url}/api/now/table/change_request`,
        `Basic ${Buffer.from('mallory:sn-standin-e2e-mallory-pass-01').toString('base64')}`,
        {
          short_description: real.short_description,
          description: real.description,
          correlation_id: real.correlation_id,
        },
      );
      return real.number!;
    },
    script: sn.script,
    posted: () => ok(sn, 'POST', /^\/api\/now\/table\/change_request$/),
    searches: () => ok(sn, 'GET', /^\/api\/now\/table\/change_request$/),
    shown: () =>
      sn.tables.change_request
        .flatMap((c) => [
          c.description!,
          ...sn.tables.sys_journal_field.filter((n) => n.element_id === c.sys_id).map((n) => n.value!),
        ])
        .join('\n'),
    url: new RegExp(`^${sn.url}/nav_to\\.do\\?uri=change_request\\.do\\?sys_id=[0-9a-f]{32}$`),
    close: () => sn.close(),
  };
}

/** A JSON request as a forger's client sends it; throws unless the upstream accepted it. */
async function sendJson(url: string, authorization: string, body: unknown): Promise<void> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { Authorization: authorization, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${url}: ${res.status} ${await res.text()}`);
}

const WORLDS = {
  mattermost: mattermostWorld,
  discord: discordWorld,
  github: githubWorld,
  jira: jiraWorld,
  servicenow: servicenowWorld,
};

export function startApprovalWorld(key: keyof typeof WORLDS): Promise<ApprovalWorld> {
  return WORLDS[key]();
}
