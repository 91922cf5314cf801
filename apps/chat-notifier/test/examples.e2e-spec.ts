import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  argoSchemaValidator,
  loadManifestFile,
  runWorkflow,
  schemaProblems,
  type WorkflowResult,
} from '@app/local-agent';
import { type AgentPlugin } from '@app/argo-agent';
import { parse } from 'yaml';
import { readFileSync } from 'node:fs';
import { DEMO_ONCALL_GROUP, startDemoUpstreams, withApprovalScopes } from '../demo/upstreams.js';
import { DEMO_DISCORD_APPROVER, startDiscordDemo } from '../demo/discord.js';
import { startGithubDemo } from '../demo/github.js';
import { DEMO_JIRA_APPROVER, startJiraDemo } from '../demo/jira.js';
import { DEMO_SERVICENOW_APPROVER, startServicenowDemo } from '../demo/servicenow.js';
import { startEmailDemo } from '../demo/email.js';
import { startGoogleChatDemo } from '../demo/google-chat.js';
import { startTeamsBotDemo, startTeamsDemo } from '../demo/teams.js';
import { startMattermostDemo } from '../demo/mattermost.js';
import { startPagerDutyDemo } from '../demo/pagerduty.js';
import { notify, startNotifier, startSlackFixture, type SlackFixture } from './support.js';

const EXAMPLES = join(import.meta.dirname, '../../../manifests/chat-notifier/examples');
const files = readdirSync(EXAMPLES)
  .filter((f) => f.endsWith('.yaml'))
  .sort();
const load = (file: string) => loadManifestFile(join(EXAMPLES, file)).workflows[0];
const out = (result: WorkflowResult, node: string, name: string) =>
  result.node(node)?.outputs?.parameters?.find((p) => p.name === name)?.value;
/** The examples with a test of their own below; every other one runs through the demo's upstreams. */
const SPEC = readFileSync(join(import.meta.dirname, 'examples.e2e-spec.ts'), 'utf8');
const ownTest = (f: string) => SPEC.includes(`load('${f}')`) || SPEC.includes(`run('${f}'`);

describe('examples: valid Argo workflows', () => {
  it('has examples, each documented in docs/chat-notifier.md', () => {
    expect(files.length).toBeGreaterThan(0);
    const doc = readFileSync(join(import.meta.dirname, '../../../docs/chat-notifier.md'), 'utf8');
    expect(files.filter((f) => !doc.includes(`\`${f}\``))).toEqual([]);
  });

  it.each(files)("%s validates against Argo's Workflow JSON schema", (file) => {
    const workflow = parse(readFileSync(join(EXAMPLES, file), 'utf8')) as unknown;
    expect(schemaProblems(argoSchemaValidator('Workflow'), workflow)).toEqual([]);
  });

  it.each(files)('%s declares every plugin output with valueFrom.supplied', (file) => {
    for (const template of load(file).spec.templates ?? []) {
      if (!template.plugin) continue;
      for (const p of template.outputs?.parameters ?? []) expect(p.valueFrom).toEqual({ supplied: {} });
    }
  });
});

describe('examples: the approval gate end to end, through the local agent and the Slack stand-in', () => {
  it('slack-approval-gate: the scripted release manager approves on the second poll; the deploy step names her', async () => {
    const f = await startSlackFixture();
    try {
      withApprovalScopes(f.ws);
      f.ws.slack.approverScript = [{ afterPolls: 2, user: 'U0ALICE001', react: 'white_check_mark' }];
      const result = await runWorkflow(load('slack-approval-gate.yaml'), {
        plugins: [{ name: 'notifier', url: f.h.url, token: f.h.token }],
        timeScale: 0.01,
      });
      expect(result.phase).toBe('Succeeded');
      expect(out(result, 'approve-prod', 'decision')).toBe('approved');
      expect(out(result, 'approve-prod', 'approvers')).toBe('U0ALICE001');
      const [request, deploy] = f.ws.slack.posts(f.ws.deploys);
      expect(f.ws.slack.posts(f.ws.deploys)).toHaveLength(2);
      expect(request!.text).toMatch(
        /^Deploy 1\.4\.2 to prod\?\n\nNeeds one approval from @release-managers, until .*\n\n:white_check_mark: Approved by <@U0ALICE001> at /s,
      );
      expect(deploy!.text).toBe(
        ':hourglass_flowing_sand: Deploying 1.4.2 to prod (approved by <@U0ALICE001>)',
      );
    } finally {
      await f.close();
    }
  });
});

describe("examples: the other providers' approval gates, through the local agent and the demo's stand-ins", () => {
  const run = async (file: string, env: Record<string, string>) => {
    const f = await startNotifier(env);
    try {
      return await runWorkflow(load(file), {
        plugins: [{ name: 'notifier', url: f.h.url, token: f.h.token }],
        timeScale: 0.01,
      });
    } finally {
      await f.close();
    }
  };

  it('mattermost-approval-gate: alice approves with ✅ on the second read; the request shows it; deploy posts', async () => {
    const demo = await startMattermostDemo();
    try {
      const result = await run('mattermost-approval-gate.yaml', demo.env);
      expect(result.phase).toBe('Succeeded');
      expect(out(result, 'approve-prod', 'decision')).toBe('approved');
      expect(out(result, 'approve-prod', 'approvers')).toBe(demo.alice.id);
      const [request] = demo.mm.posts(demo.approvals);
      expect(demo.mm.posts(demo.approvals)).toHaveLength(1);
      expect(request!.message).toMatch(
        new RegExp(
          `^Deploy 1\\.4\\.2 to prod\\?\n\nNeeds one approval from @alice, until [^\n]*\n\n:white_check_mark: Approved by ${demo.alice.id} at `,
        ),
      );
      expect(demo.mm.posts(demo.deploys)).toHaveLength(1);
      expect(JSON.stringify(demo.mm.posts(demo.deploys)[0])).toMatch(
        /Deploying 1\.4\.2 to prod \(approved at \d{4}-/,
      );
    } finally {
      await demo.close();
    }
  });

  it('discord-vote-approval: the approver reacts ✅ on the second read; the webhook then posts naming them', async () => {
    const demo = await startDiscordDemo();
    try {
      const result = await run('discord-vote-approval.yaml', demo.env);
      expect(result.phase).toBe('Succeeded');
      expect(out(result, 'approve-prod', 'approvers')).toBe(DEMO_DISCORD_APPROVER);
      const requests = demo.discord.in(demo.approvals.id);
      expect(requests).toHaveLength(1);
      expect(requests[0]!.content).toMatch(/^Deploy 1\.4\.2 to prod\?/);
      expect(JSON.stringify(demo.discord.in(demo.builds.id).map((m) => [m.content, m.embeds]))).toContain(
        `Deploying 1.4.2 to prod (approved by <@${DEMO_DISCORD_APPROVER}>)`,
      );
    } finally {
      await demo.close();
    }
  });

  it('github-approval-gate: a team member comments /approve on the second read; the issue is closed with it', async () => {
    const [demo, f] = [await startGithubDemo(), await startSlackFixture()];
    try {
      const result = await run('github-approval-gate.yaml', { ...demo.env, ...f.ws.env });
      expect(result.phase).toBe('Succeeded');
      expect(out(result, 'approve-prod', 'approvers')).toBe('alice');
      expect(out(result, 'approve-prod', 'url')).toBe('https://github.com/acme/deploys/issues/1');
      expect(demo.deploys.issues.map((i) => [i.title, i.state])).toEqual([
        ['Deploy 1.4.2 to prod?', 'closed'],
      ]);
      expect(f.ws.slack.posts(f.ws.deploys).map((m) => m.text)).toEqual([
        expect.stringContaining(
          'Deploying 1.4.2 to prod (approved by alice on https://github.com/acme/deploys/issues/1)',
        ),
      ]);
    } finally {
      await f.close();
      await demo.close();
    }
  });
  it('jira-approval-gate: the release manager moves the issue to Approved on the second read; deploy names the issue', async () => {
    const [demo, f] = [await startJiraDemo(), await startSlackFixture()];
    try {
      const result = await run('jira-approval-gate.yaml', { ...demo.env, ...f.ws.env });
      expect(result.phase).toBe('Succeeded');
      expect(out(result, 'approve-prod', 'decision')).toBe('approved');
      expect(out(result, 'approve-prod', 'approvers')).toBe(DEMO_JIRA_APPROVER);
      expect(out(result, 'approve-prod', 'url')).toBe(`${demo.jira.url}/browse/OPS-1`);
      expect(demo.jira.issues.map((i) => [i.key, i.summary, i.status.name, i.creator])).toEqual([
        ['OPS-1', 'Deploy 1.4.2 to prod?', 'Approved', demo.gate],
      ]);
      expect(f.ws.slack.posts(f.ws.deploys).map((m) => m.text)).toEqual([
        expect.stringContaining(
          `Deploying 1.4.2 to prod (approved by ${DEMO_JIRA_APPROVER} on ${demo.jira.url}/browse/OPS-1)`,
        ),
      ]);
    } finally {
      await f.close();
      await demo.close();
    }
  });

  it("servicenow-change-approval: the change's approval rules ask the change manager, who approves; deploy names the change", async () => {
    const [demo, f] = [await startServicenowDemo(), await startSlackFixture()];
    try {
      const result = await run('servicenow-change-approval.yaml', { ...demo.env, ...f.ws.env });
      expect(result.phase).toBe('Succeeded');
      expect(out(result, 'approve-prod', 'decision')).toBe('approved');
      expect(out(result, 'approve-prod', 'approvers')).toBe(DEMO_SERVICENOW_APPROVER);
      const changes = demo.sn.tables.change_request;
      expect(changes.map((c) => [c.short_description, c.approval, c.sys_created_by])).toEqual([
        ['Deploy 1.4.2 to prod', 'approved', 'argo.gate'],
      ]);
      const url = `${demo.sn.url}/nav_to.do?uri=change_request.do?sys_id=${changes[0]!.sys_id}`;
      expect(out(result, 'approve-prod', 'url')).toBe(url);
      expect(f.ws.slack.posts(f.ws.deploys).map((m) => m.text)).toEqual([
        expect.stringContaining(
          `Deploying 1.4.2 to prod (approved by ${DEMO_SERVICENOW_APPROVER} on ${url})`,
        ),
      ]);
    } finally {
      await f.close();
      await demo.close();
    }
  });
});

describe('examples: the Mattermost one end to end, through the local agent and the Mattermost stand-in', () => {
  it('mattermost-deploy: one post in ~deploys edited to succeeded, one reply with the log in its thread', async () => {
    const demo = await startMattermostDemo();
    const f = await startNotifier(demo.env);
    try {
      const result = await runWorkflow(load('mattermost-deploy.yaml'), {
        plugins: [{ name: 'notifier', url: f.h.url, token: f.h.token }],
        timeScale: 0.01,
      });
      expect(result.phase).toBe('Succeeded');
      const [post, reply] = demo.mm.posts(demo.deploys);
      expect(demo.mm.posts(demo.deploys)).toHaveLength(2);
      expect(post.id).toBe(out(result, 'announce', 'id'));
      expect(post.message).toBe(':white_check_mark: **Succeeded**');
      expect(post.props.attachments).toEqual([
        expect.objectContaining({
          color: '#2EB67D',
          title: 'Deployed 1.4.2',
          text: `${result.name} finished`,
        }),
      ]);
      expect(reply.root_id).toBe(post.id);
      expect(demo.mm.state.files.get(reply.file_ids[0])?.name).toBe('migrations.log');
    } finally {
      await f.close();
      await demo.close();
    }
  });
});

describe('examples: the Discord one end to end, through the local agent and the Discord stand-in', () => {
  it('discord-status-in-place: one message, edited from running to succeeded with its fields', async () => {
    const demo = await startDiscordDemo();
    const f = await startNotifier(demo.env);
    try {
      const result = await runWorkflow(load('discord-status-in-place.yaml'), {
        plugins: [{ name: 'notifier', url: f.h.url, token: f.h.token }],
        timeScale: 0.01,
      });
      expect(result.phase).toBe('Succeeded');
      const messages = demo.discord.in(demo.builds.id);
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatchObject({
        id: out(result, 'announce', 'id'),
        content: '\u2705 **Succeeded**',
      });
      expect(messages[0].embeds).toEqual([
        expect.objectContaining({
          color: 0x2eb67d,
          title: `Build ${result.name}`,
          description: 'all tests passed',
        }),
      ]);
      expect(messages[0].edited_timestamp).not.toBeNull();
    } finally {
      await f.close();
      await demo.close();
    }
  });
});

describe('examples: the PagerDuty one end to end, through the local agent and the PagerDuty stand-in', () => {
  it('pagerduty-exit-handler, success: the alert of an earlier failure is resolved, nobody is paged', async () => {
    const demo = await startPagerDutyDemo();
    const f = await startNotifier(demo.env);
    try {
      // An earlier night failed: its alert is open.
      await f.h.execute(
        notify('pagerduty', { dedupKey: 'nightly-etl', title: 'Nightly ETL failed', key: 'earlier' }),
      );
      const result = await runWorkflow(load('pagerduty-exit-handler.yaml'), {
        plugins: [{ name: 'notifier', url: f.h.url, token: f.h.token }],
        timeScale: 0.01,
      });
      expect(result.phase).toBe('Succeeded');
      expect(result.node('page')?.phase).toBe('Skipped');
      expect(result.node('all-clear')?.message).toBe('resolved alert nightly-etl (service default)');
      expect(demo.pd.alerts).toEqual([
        expect.objectContaining({ status: 'resolved', log: ['trigger', 'resolve'] }),
      ]);
    } finally {
      await f.close();
      await demo.close();
    }
  });
});

describe('examples: Google Chat, Teams and email end to end, through the local agent and their stand-ins', () => {
  it('google-chat-thread: three messages in one thread keyed by the workflow name, the last a card', async () => {
    const demo = await startGoogleChatDemo();
    const f = await startNotifier(demo.env);
    try {
      const result = await runWorkflow(load('google-chat-thread.yaml'), {
        plugins: [{ name: 'notifier', url: f.h.url, token: f.h.token }],
        timeScale: 0.01,
      });
      expect(result.phase).toBe('Succeeded');
      const messages = demo.chat.in(demo.space);
      expect(messages.map((m) => m.thread.name)).toEqual(Array(3).fill(out(result, 'done', 'thread')));
      expect(messages.map((m) => m.text)).toEqual([
        `Release ${result.name} started`,
        '128 tests passed',
        undefined,
      ]);
      expect(messages[2].cardsV2).toHaveLength(1);
    } finally {
      await f.close();
      await demo.close();
    }
  });

  it('google-chat-app-status: one card as the Chat app, updated in place to succeeded', async () => {
    const demo = await startGoogleChatDemo();
    const f = await startNotifier(demo.env);
    try {
      const result = await runWorkflow(load('google-chat-app-status.yaml'), {
        plugins: [{ name: 'notifier', url: f.h.url, token: f.h.token }],
        timeScale: 0.01,
      });
      expect(result.phase).toBe('Succeeded');
      const messages = demo.chat.in(demo.space);
      expect(messages).toHaveLength(1);
      expect(messages[0].name).toBe(out(result, 'announce', 'id'));
      expect(messages[0].lastUpdateTime).toBeDefined();
      expect(JSON.stringify(messages[0].cardsV2)).toContain('Succeeded');
    } finally {
      await f.close();
      await demo.close();
    }
  });

  it('teams-and-email-report: one card to the Teams channel and one mail to the owners', async () => {
    const teams = await startTeamsDemo();
    const email = await startEmailDemo();
    const f = await startNotifier({ ...teams.env, ...email.env });
    try {
      const result = await runWorkflow(load('teams-and-email-report.yaml'), {
        plugins: [{ name: 'notifier', url: f.h.url, token: f.h.token }],
        timeScale: 0.01,
      });
      expect(result.phase).toBe('Succeeded');
      expect(teams.flow.posted).toHaveLength(1);
      expect(JSON.stringify(teams.flow.posted[0])).toContain(`Weekly report ${result.name}`);
      expect(email.smtp.mails).toHaveLength(1);
      expect(email.smtp.mails[0]).toMatchObject({ to: ['data-team@example.com'] });
      expect(email.smtp.mails[0].headers['message-id']).toBe(out(result, 'mail', 'id'));
    } finally {
      await f.close();
      await teams.close();
      await email.close();
    }
  });
});

describe('examples: the Teams bot one end to end, through the local agent and the Bot Framework stand-in', () => {
  it('teams-bot-thread: a thread started, a reply in it, the first card edited to succeeded', async () => {
    const demo = await startTeamsBotDemo();
    const f = await startNotifier(demo.env);
    try {
      const result = await runWorkflow(load('teams-bot-thread.yaml'), {
        plugins: [{ name: 'notifier', url: f.h.url, token: f.h.token }],
        timeScale: 0.01,
      });
      expect(result.phase).toBe('Succeeded');
      const [root, reply] = demo.bot.messages(demo.channel);
      expect(demo.bot.messages(demo.channel)).toHaveLength(2);
      expect(root.id).toBe(out(result, 'announce', 'id'));
      expect(reply.root).toBe(root.id);
      expect(root.edits).toBe(1);
      expect(JSON.stringify(root.attachments)).toContain('Deployed 1.4.2');
    } finally {
      await f.close();
      await demo.close();
    }
  });
});

describe('examples: end to end through the local agent and the Slack stand-in', () => {
  let f: SlackFixture;
  let plugin: AgentPlugin;
  const run = (file: string, parameters?: Record<string, string>) =>
    runWorkflow(load(file), { plugins: [plugin], timeScale: 0.01, parameters });
  beforeAll(async () => {
    f = await startSlackFixture();
    plugin = { name: 'slack', url: f.h.url, token: f.h.token };
  });
  afterAll(() => f.close());
  beforeEach(() => f.ws.slack.server.faults.clear());

  it('notify-on-start: one running-status message in #builds; ts and permalink are outputs', async () => {
    const result = await run('notify-on-start.yaml');
    expect(result.phase).toBe('Succeeded');
    const ts = out(result, 'announce', 'ts');
    const message = f.ws.builds.messages.find((m) => m.ts === ts)!;
    expect(message.text).toBe(
      `:hourglass_flowing_sand: Build of \`3f2a9c1\` started: *${result.name}* in \`argo\``,
    );
    expect(message.metadata?.event_payload).toMatchObject({
      workflow_uid: result.uid,
      workflow_name: result.name,
      template: 'announce',
    });
    expect(out(result, 'announce', 'permalink')).toMatch(
      new RegExp(`/archives/${f.ws.builds.id}/p${ts!.replace('.', '')}$`),
    );
    expect(result.node('announce')?.message).toBe(
      `posted to #builds: ${out(result, 'announce', 'permalink')}`,
    );
  });

  it('thread-progress: a root and three replies in its thread, the last one broadcast', async () => {
    const result = await run('thread-progress.yaml');
    expect(result.phase).toBe('Succeeded');
    const root = out(result, 'start', 'ts')!;
    const thread = f.ws.builds.messages.filter((m) => m.thread_ts === root && m.ts !== root);
    expect(thread.map((m) => m.text)).toEqual([
      ':hammer: compiled',
      ':test_tube: 128 tests passed',
      `:white_check_mark: ${result.name} is done`,
    ]);
    expect(thread.map((m) => m.subtype)).toEqual([undefined, undefined, 'thread_broadcast']);
    expect(result.node('done')?.message).toMatch(
      new RegExp(`^replied in thread ${root.replace('.', '\\.')} in #builds: `),
    );
  });

  it('update-status-in-place: one card in #deploys, edited once from running to succeeded', async () => {
    const before = f.ws.slack.posts(f.ws.deploys).length;
    const result = await run('update-status-in-place.yaml');
    expect(result.phase).toBe('Succeeded');
    expect(f.ws.slack.posts(f.ws.deploys).length).toBe(before + 1);
    const ts = out(result, 'card', 'ts');
    expect(out(result, 'result', 'ts')).toBe(ts);
    const card = f.ws.deploys.messages.find((m) => m.ts === ts)!;
    expect(card).toMatchObject({ edits: 1, text: ':white_check_mark: Deployed *api* 1.14.2' });
    expect(card.attachments).toEqual([expect.objectContaining({ color: '#2EB67D' })]);
    expect(result.node('result')?.message).toBe(`updated ${out(result, 'card', 'permalink')}`);
  });

  it('exit-handler-report, success: the final status without a mention', async () => {
    const result = await run('exit-handler-report.yaml');
    expect(result.phase).toBe('Succeeded');
    expect(result.node('failed')?.phase).toBe('Skipped');
    const report = f.ws.deploys.messages.at(-1)!;
    expect(report.text).toMatch(
      new RegExp(`^:white_check_mark: Nightly ETL \\*${result.name}\\* finished: Succeeded after [\\d.]+ s$`),
    );
    expect(report.attachments).toEqual([expect.objectContaining({ color: '#2EB67D' })]);
  });

  it('exit-handler-report, failure: red, and the on-call group is mentioned', async () => {
    // Slack refuses the announcement once, so the workflow fails and the exit handler reports it.
    f.ws.slack.server.faults.add(
      { kind: 'status', status: 200, body: { ok: false, error: 'restricted_action' } },
      { match: (req) => req.path === '/api/chat.postMessage' },
    );
    const result = await run('exit-handler-report.yaml');
    expect(result.phase).toBe('Failed');
    expect(result.node('announce')?.message).toMatch(/\(restricted_action\)$/);
    expect(result.node('succeeded')?.phase).toBe('Skipped');
    const report = f.ws.deploys.messages.at(-1)!;
    expect(report.text).toMatch(
      new RegExp(
        `^:x: <!subteam\\^${DEMO_ONCALL_GROUP}> Nightly ETL \\*${result.name}\\* finished: Failed after`,
      ),
    );
    expect(report.blocks).toEqual([
      {
        type: 'context',
        elements: [{ type: 'mrkdwn', text: `:x: *Failed* <!subteam^${DEMO_ONCALL_GROUP}>` }],
      },
    ]);
    expect(report.attachments).toEqual([expect.objectContaining({ color: '#E01E5A' })]);
  });

  it('upload-report: the summary and the report file, shared once, with the full content', async () => {
    const result = await run('upload-report.yaml');
    expect(result.phase).toBe('Succeeded');
    const share = f.ws.slack.fileShares(f.ws.builds).at(-1)!;
    expect(share.files).toEqual([
      expect.objectContaining({ name: 'test-report.md', title: `Test report ${result.name}` }),
    ]);
    const upload = [...f.ws.slack.uploads.values()].find((u) => u.fileId === share.files![0].id)!;
    expect(upload.content).toBe(String(load('upload-report.yaml').spec.arguments?.parameters?.[0].value));
    expect(result.node('publish')?.message).toMatch(/^posted to #builds: .* with file test-report\.md$/);
  });
});

// A new provider's example needs no test here: it runs as `npm run demo` runs it, against every stand-in.
const generic = files.filter((f) => !ownTest(f));
describe('examples: the others, through the local agent and the demo upstreams', () => {
  if (generic.length === 0) it('has none: every example has a test of its own above', () => undefined);
  else
    it.each(generic)('%s succeeds', async (file) => {
      const demo = await startDemoUpstreams();
      const f = await startNotifier(demo.env);
      try {
        const result = await runWorkflow(load(file), {
          plugins: [{ name: 'notifier', url: f.h.url, token: f.h.token }],
          timeScale: 0.01,
        });
        expect([result.phase, result.message]).toEqual(['Succeeded', undefined]);
      } finally {
        await f.close();
        await demo.close();
      }
    });
});
