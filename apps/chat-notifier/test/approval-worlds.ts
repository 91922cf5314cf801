import type { ApprovalScript } from '../stand-ins/approval-script.js';
import { DiscordStandIn } from '../stand-ins/discord/discord.stand-in.js';
import { GithubStandIn } from '../stand-ins/github/github.stand-in.js';
import { JiraStandIn } from '../stand-ins/jira/jira.stand-in.js';
import { ServicenowStandIn } from '../stand-ins/servicenow/servicenow.stand-in.js';
import { adfText } from '../src/providers/jira/jira-approval-channel.js';
import { MattermostStandIn } from '../stand-ins/mattermost/mattermost.stand-in.js';
import type { ProviderStandIn } from '@app/local-agent';
import type { ApprovalProvider, Person, WorldCase, WorldStep } from './approval-provider-table.js';

export type { Person };

/**
 * One provider's stand-in as the approval table drives it: two people who may answer, what they can do to a
 * request (its id as the stand-in's scripted approver names it), and what the sidecar did there. Its places
 * (channels, repositories, projects; 0 unless a suite runs several rows at once) keep rows apart.
 */
export interface ApprovalWorld {
  /** The sidecar's variables for the stand-in. */
  env: Record<string, string>;
  /** The provider's block under `approve`, with `approvers` as a body writes them, for a request in `place`. */
  block(approvers: string[], place?: number): Record<string, unknown>;
  /** The place a request is in. */
  placeOf(request: string): number;
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
  /** Requests the sidecar posted (successful creating calls, counted at the stand-in), in `place` or anywhere. */
  posted(place?: number): number;
  /** Looks for an earlier request (a gate's first call on a sidecar). */
  searches(): number;
  /** Everything the requests (of `place`, or all) show now (the post, or the issue with its comments); '' when gone. */
  shown(place?: number): string;
  /** What the `url` output looks like. */
  url: RegExp;
  close(): Promise<void>;
}

const TEXT = 'Deploy 1.4.2 to prod?';
type Call = ProviderStandIn['server']['calls'][number];
/** Successful calls of `method` on `path` (those `where` keeps, when given). */
const ok = (
  standIn: ProviderStandIn,
  method: string,
  path: RegExp,
  where: (call: Call) => boolean = () => true,
) =>
  standIn.server.calls.filter((c) => c.method === method && path.test(c.path) && c.status < 300 && where(c))
    .length;
/** Places 0 … places-1. */
const range = (places: number) => Array.from({ length: places }, (_, i) => i);
/** Whether `place` is the one asked for (undefined: any). */
const isPlace = (place: number | undefined, i: number) => place === undefined || place === i;

async function mattermostWorld(places: number): Promise<ApprovalWorld> {
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
  const channels = range(places).map((i) =>
    mm.state.addChannel(team, i === 0 ? 'deploys' : `deploys-${i}`, [bot, mallory, ...Object.values(users)]),
  );
  const deploys = channels[0]!;
  return {
    env: { MATTERMOST_URL: mm.url, MATTERMOST_TOKEN: token },
    block: (approvers, place = 0) => ({ channel: channels[place]!.id, text: TEXT, approvers }),
    placeOf: (post) => channels.findIndex((c) => c.id === mm.state.posts.get(post)?.channel_id),
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
    posted: (place) =>
      ok(mm, 'POST', /^\/api\/v4\/posts$/, (c) =>
        channels.some(
          (ch, i) => isPlace(place, i) && (c.body as { channel_id?: string }).channel_id === ch.id,
        ),
      ),
    searches: () => ok(mm, 'GET', /^\/api\/v4\/channels\/\w+\/posts$/),
    shown: (place) =>
      channels
        .filter((_, i) => isPlace(place, i))
        .flatMap((ch) => mm.posts(ch))
        .filter((p) => !p.root_id && p.delete_at === 0)
        .map((p) => p.message)
        .join('\n'),
    url: new RegExp(`^${mm.url}/_redirect/pl/\\w{26}$`),
    close: () => mm.close(),
  };
}

async function discordWorld(places: number): Promise<ApprovalWorld> {
  const discord = await new DiscordStandIn().start();
  const token = 'MTEwMDAwMDAwMDAwMDAwMDAwMg.stand-in.e2e-bot-token';
  const channels = range(places).map(() => discord.addChannel());
  const deploys = channels[0]!;
  const argo = discord.addBot('argo', token, channels);
  // Another bot in the channel, run by someone who is not an approver.
  const forgerToken = 'MTEwMDAwMDAwMDAwMDAwMDAwMw.stand-in.forger-bot-token';
  discord.addBot('deploy-helper', forgerToken, [deploys]);
  const channelOf = (message: string) =>
    channels.findIndex((c) => discord.in(c.id).some((m) => m.id === message));
  const users = { alice: discord.addUser('alice'), bob: discord.addUser('bob') };
  return {
    env: { DISCORD_BOT_TOKEN: token, DISCORD_API_URL: `${discord.url}/api/v10` },
    block: (approvers, place = 0) => ({ channel: channels[place]!.id, text: TEXT, approvers }),
    placeOf: channelOf,
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
    posted: (place) =>
      ok(discord, 'POST', /\/channels\/\d+\/messages$/, (c) =>
        channels.some((ch, i) => isPlace(place, i) && c.path.includes(`/channels/${ch.id}/`)),
      ),
    searches: () => ok(discord, 'GET', /\/channels\/\d+\/messages$/),
    shown: (place) =>
      channels
        .filter((_, i) => isPlace(place, i))
        .flatMap((ch) => discord.in(ch.id))
        .map((m) => m.content)
        .join('\n'),
    url: new RegExp(`^https://discord\\.com/channels/\\d+/(${channels.map((c) => c.id).join('|')})/\\d+$`),
    close: () => discord.close(),
  };
}

async function githubWorld(places: number): Promise<ApprovalWorld> {
  const gh = await new GithubStandIn().start();
  const token = 'ghp_standin0e2e0approvals0token0000000000';
  const deployer = gh.addUser('argo-deployer', { token });
  const users = { alice: gh.addUser('Alice'), bob: gh.addUser('bob') };
  const mallory = gh.addUser('mallory', { token: 'ghp_standin0e2e0mallory0token00000000000' });
  const repos = range(places).map((i) =>
    gh.addRepository(i === 0 ? 'acme/deploys' : `acme/deploys-${i}`, [deployer, users.alice, mallory]),
  );
  const repo = repos[0]!;
  /** `acme/deploys#7` → the repository's place. */
  const placeOf = (request: string) => repos.findIndex((r) => r.fullName === request.split('#')[0]);
  const issue = (request: string) => gh.issue(repos[placeOf(request)]!, request.split('#')[1]!);
  return {
    env: {
      APPROVALS_GITHUB_TOKEN: token,
      APPROVALS_GITHUB_REPOSITORIES: repos.map((r) => r.fullName).join(','),
      APPROVALS_GITHUB_API_URL: gh.url,
    },
    block: (approvers, place = 0) => ({ repository: repos[place]!.fullName, text: TEXT, approvers }),
    placeOf,
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
    posted: (place) =>
      ok(gh, 'POST', /^\/repos\/acme\/[\w-]+\/issues$/, (c) =>
        repos.some((r, i) => isPlace(place, i) && c.path === `/repos/${r.fullName}/issues`),
      ),
    searches: () => ok(gh, 'GET', /^\/repos\/acme\/[\w-]+\/issues$/),
    shown: (place) =>
      repos
        .filter((_, i) => isPlace(place, i))
        .flatMap((r) => r.issues)
        .filter((i) => !i.gone)
        .flatMap((i) => [i.body, ...i.comments.map((c) => c.body)])
        .join('\n'),
    url: /^https:\/\/github\.com\/acme\/deploys(-\d+)?\/issues\/\d+$/,
    close: () => gh.close(),
  };
}

async function jiraWorld(places: number): Promise<ApprovalWorld> {
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
  const projects = range(places).map((i) => (i === 0 ? 'OPS' : `OPS${i}`));
  for (const project of projects) jira.addProject(project, [argo, mallory, ...Object.values(users)]);
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
      APPROVALS_JIRA_PROJECTS: projects.join(','),
    },
    block: (approvers, place = 0) => ({
      project: projects[place]!,
      text: TEXT,
      approvers,
      approvedStatus: 'Approved',
      rejectedStatus: 'Rejected',
    }),
    placeOf: (key) => projects.indexOf(key.split('-')[0]!),
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
    posted: (place) =>
      ok(jira, 'POST', /^\/rest\/api\/3\/issue$/, (c) =>
        projects.some(
          (p, i) =>
            isPlace(place, i) &&
            (c.body as { fields?: { project?: { key?: string } } }).fields?.project?.key === p,
        ),
      ),
    searches: () => ok(jira, 'POST', /^\/rest\/api\/3\/search\/jql$/),
    shown: (place) =>
      jira.issues
        .filter((i) => !i.deleted && projects.some((p, n) => isPlace(place, n) && i.project === p))
        .flatMap((i) => [adfText(i.description), ...i.comments.map((c) => adfText(c.body))])
        .join('\n'),
    url: new RegExp(`^${jira.url}/browse/OPS\\d*-\\d+$`),
    close: () => jira.close(),
  };
}

async function servicenowWorld(): Promise<ApprovalWorld> {
  // A change has no place of its own: the place is written into its text (its short description).
  const textOf = (place: number) => (place === 0 ? TEXT : `${TEXT} [place ${place}]`);
  /** The places of deleted changes by sys_id: the record the gate opens in one's place links to it. */
  const removed = new Map<string, number>();
  const placeOfText = (text = '') => {
    for (const [sysId, place] of removed) if (text.includes(sysId)) return place;
    return Number(/ \[place (\d+)\]$/.exec(text.split('\n')[0]!)?.[1] ?? 0);
  };
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
    block: (approvers, place = 0) => ({ text: textOf(place), approvers }),
    placeOf: (number) => placeOfText(change(number).short_description),
    people: {
      alice: { ref: users.alice.sys_id, id: users.alice.sys_id },
      bob: { ref: users.bob.sys_id, id: users.bob.sys_id },
    },
    approve: (number, who) => answer(number, who, 'approved'),
    reject: (number, who) => answer(number, who, 'rejected'),
    withdraw: (number, who) => answer(number, who, 'requested'),
    remove: (number) => {
      removed.set(change(number).sys_id!, placeOfText(change(number).short_description));
      sn.remove(change(number));
    },
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
    posted: (place) =>
      ok(sn, 'POST', /^\/api\/now\/table\/change_request$/, (c) =>
        isPlace(place, placeOfText((c.body as { short_description?: string }).short_description)),
      ),
    searches: () => ok(sn, 'GET', /^\/api\/now\/table\/change_request$/),
    shown: (place) =>
      sn.tables.change_request
        .filter((c) => isPlace(place, placeOfText(c.short_description)))
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

const WORLDS: Record<ApprovalProvider, (places: number) => Promise<ApprovalWorld>> = {
  mattermost: mattermostWorld,
  discord: discordWorld,
  github: githubWorld,
  jira: jiraWorld,
  servicenow: servicenowWorld,
};

/** The provider's stand-in with `places` places, each its own channel, repository or project (or text). */
export function startApprovalWorld(key: ApprovalProvider, places = 1): Promise<ApprovalWorld> {
  return WORLDS[key](places);
}

/** Does a step of the table to `request`. */
export function perform(world: ApprovalWorld, step: WorldStep, request: string): void {
  if (step.act === 'delete') world.remove(request);
  else if (step.act === 'cancel') world.cancel!(request);
  else if (step.comment && step.act !== 'withdraw') world.answer!(request, step.who!, step.act, step.comment);
  else world[step.act](request, step.who!);
}

/** A row's `rules`, its people as the provider's block names them. */
export function rulesOf(
  row: WorldCase,
  world: ApprovalWorld,
): Array<{ approvers: string[]; minApprovals?: number }> {
  return (row.rules ?? []).map((r) => ({ ...r, approvers: r.approvers.map((p) => world.people[p].ref) }));
}

/** A row's `ruleApprovers`, as `byRule` reads the output. */
export function expectedByRule(ruleApprovers: Person[][], world: ApprovalWorld): string[][] {
  return ruleApprovers.map((rule) => rule.map((p) => world.people[p].id).sort());
}
