// The providers' modules are imported up front, with the kit's loader (one after the other): a suite's first
// calls would otherwise import them next to its own dynamic imports, and Jest's ESM loader fails such concurrent
// imports ("request for 'axios' is not in cache"). In production they are bundled chunks loaded on the first call.
import { loadProviderModules } from '@app/plugin-kit/providers/provider-table.js';
import { executeArgs, startHarness, type ExecuteArgsOptions, type PluginHarness } from '@app/local-agent';
import { startSlackDemoWorkspace, type SlackDemoWorkspace } from '../demo/upstreams.js';
import { chatNotifierPlugin } from '../src/chat-notifier.plugin.js';
import { PROVIDERS } from '../src/providers/index.js';
import type { ProviderModule } from '../src/providers/notifier-provider.js';

/** Every provider's module, by key, imported before the plugin's module is. */
export function preloadProviderModules(): ReturnType<typeof loadProviderModules<ProviderModule>> {
  return loadProviderModules(PROVIDERS);
}

await preloadProviderModules();

/** Short timeouts so hang faults resolve quickly in tests. */
export const TEST_ENV = { SLACK_REQUEST_TIMEOUT: '400ms' };

export interface PluginFixture {
  h: PluginHarness;
  /** A new sidecar with the same env and agent token: the restart of a sidecar (its ledger is gone). */
  restart(): Promise<PluginHarness>;
  close(): Promise<void>;
}

export interface SlackFixture extends PluginFixture {
  ws: SlackDemoWorkspace;
}

/** The notifier sidecar with `fullEnv`, restartable; `onClose` runs after it stops. */
async function restartableNotifier(
  fullEnv: Record<string, string>,
  onClose?: () => Promise<void>,
): Promise<PluginFixture> {
  const fixture: PluginFixture = {
    h: await startHarness(chatNotifierPlugin, { env: fullEnv }),
    async restart() {
      const token = fixture.h.token;
      await fixture.h.close();
      fixture.h = await startHarness(chatNotifierPlugin, { env: fullEnv, token });
      return fixture.h;
    },
    async close() {
      await fixture.h.close();
      await onClose?.();
    },
  };
  return fixture;
}

export async function startSlackFixture(
  env: Record<string, string> = {},
  ws?: SlackDemoWorkspace,
): Promise<SlackFixture> {
  const workspace = ws ?? (await startSlackDemoWorkspace());
  const fixture = await restartableNotifier(
    { ...workspace.env, ...TEST_ENV, ...env },
    ws ? undefined : () => workspace.close(),
  );
  return Object.assign(fixture, { ws: workspace });
}

/** A template.execute request for the `slack` plugin, as the agent sends it. */
export function slack(body: Record<string, unknown>, options: ExecuteArgsOptions = {}) {
  return executeArgs({ slack: body }, options);
}

/** The notifier sidecar with `env` (a provider's stand-in settings). */
export function startNotifier(env: Record<string, string>): Promise<PluginFixture> {
  return restartableNotifier({ ...TEST_ENV, NOTIFY_REQUEST_TIMEOUT: '400ms', ...env });
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
