// The plugin module is imported up front: the kit loads it lazily with a dynamic import that runs next to
// another one, and Jest's ESM loader fails such concurrent imports ("request for 'reflect-metadata' is not
// in cache"). In production the module is a bundled chunk and loads on the first call, as designed.
import '../src/slack-notifier.module.js';
import { executeArgs, startHarness, type ExecuteArgsOptions, type PluginHarness } from '@app/testing';
import { startSlackDemoWorkspace, type SlackDemoWorkspace } from '../demo/upstreams.js';
import { slackNotifierPlugin } from '../src/slack-notifier.plugin.js';

/** Short timeouts so hang faults resolve quickly in tests. */
export const TEST_ENV = { SLACK_REQUEST_TIMEOUT: '400ms' };

export interface SlackFixture {
  ws: SlackDemoWorkspace;
  h: PluginHarness;
  /** A new sidecar with the same env and agent token: the restart of a sidecar (its ledger is gone). */
  restart(): Promise<PluginHarness>;
  close(): Promise<void>;
}

export async function startSlackFixture(
  env: Record<string, string> = {},
  ws?: SlackDemoWorkspace,
): Promise<SlackFixture> {
  const workspace = ws ?? (await startSlackDemoWorkspace());
  const fullEnv = { ...workspace.env, ...TEST_ENV, ...env };
  const fixture: SlackFixture = {
    ws: workspace,
    h: await startHarness(slackNotifierPlugin, { env: fullEnv }),
    async restart() {
      const token = fixture.h.token;
      await fixture.h.close();
      fixture.h = await startHarness(slackNotifierPlugin, { env: fullEnv, token });
      return fixture.h;
    },
    async close() {
      await fixture.h.close();
      if (!ws) await workspace.close();
    },
  };
  return fixture;
}

/** A template.execute request for the `slack` plugin, as the agent sends it. */
export function slack(body: Record<string, unknown>, options: ExecuteArgsOptions = {}) {
  return executeArgs({ slack: body }, options);
}

export interface PluginFixture {
  h: PluginHarness;
  /** A new sidecar with the same env and agent token: the restart of a sidecar (its ledger is gone). */
  restart(): Promise<PluginHarness>;
  close(): Promise<void>;
}

/** The notifier sidecar with `env` (a provider's stand-in settings). */
export async function startNotifier(env: Record<string, string>): Promise<PluginFixture> {
  const fullEnv = { ...TEST_ENV, NOTIFY_REQUEST_TIMEOUT: '400ms', ...env };
  const fixture: PluginFixture = {
    h: await startHarness(slackNotifierPlugin, { env: fullEnv }),
    async restart() {
      const token = fixture.h.token;
      await fixture.h.close();
      fixture.h = await startHarness(slackNotifierPlugin, { env: fullEnv, token });
      return fixture.h;
    },
    close: () => fixture.h.close(),
  };
  return fixture;
}

/** A template.execute request with the `notify` key: `notify: {<provider>: body}`. */
export function notify(provider: string, body: Record<string, unknown>, options: ExecuteArgsOptions = {}) {
  return executeArgs({ notify: { [provider]: body } }, options);
}

/** Output parameters of a reply as a map. */
export function outputs(reply: {
  node?: { outputs?: { parameters?: Array<{ name: string; value: string }> } };
}): Record<string, string> {
  return Object.fromEntries((reply.node?.outputs?.parameters ?? []).map((p) => [p.name, p.value]));
}
