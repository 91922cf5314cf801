// The suite's scripted plugin: a plugin sidecar that follows the contract (the agent's token on every path
// and method before anything else, `{}` for templates that are not its own) and answers its own templates
// (`plugin: {scripted: {scenario: <text>}}`) with the script of that reply scenario. Every request is
// reported, so that calls are counted at the plugin. One process serves one workflow (an agent pod has its
// own sidecar), so the calls of a scenario are counted from 1; requests to other paths (a redirect's target)
// go to the scenario of the last own template.
import { readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';
import { EXECUTE, replyScripts, type Handler } from '../../../../libs/local-agent/test/reply-scenarios.js';

export const SCRIPTED_KEY = 'scripted';

export interface PluginRequest {
  /** Epoch ms at arrival. */
  t: number;
  method: string;
  url: string;
  scenario?: string;
  /** The count of template.execute requests so far, this one included. */
  call: number;
  /** Set when the request was refused before the script (403, or not its own template). */
  answer?: 'forbidden' | 'not ours' | 'unknown scenario' | 'no scenario yet';
}

export interface ScriptedPluginOptions {
  host: string;
  port: number;
  tokenFile: string;
  onRequest(request: PluginRequest): void;
}

export interface RunningScriptedPlugin {
  port: number;
  close(): Promise<void>;
}

const scripts = new Map(replyScripts.map((s) => [s.scenario, s.plugin]));

function readToken(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

function answer(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(body);
}

/** The scenario a template.execute body addresses to this plugin; undefined for another plugin's template. */
function scenarioOf(body: string): string | undefined | null {
  try {
    const own = (JSON.parse(body) as { template?: { plugin?: Record<string, { scenario?: unknown }> } })
      .template?.plugin?.[SCRIPTED_KEY];
    if (!own) return undefined;
    return typeof own.scenario === 'string' ? own.scenario : null;
  } catch {
    return null;
  }
}

export async function startScriptedPlugin(options: ScriptedPluginOptions): Promise<RunningScriptedPlugin> {
  let token = readToken(options.tokenFile);
  let calls = 0;
  let current: { scenario: string; plugin: Handler } | undefined;
  const server = createServer((req, res) => {
    void (async () => {
      const url = req.url ?? '';
      const base = { t: Date.now(), method: req.method ?? '', url };
      token ??= readToken(options.tokenFile);
      if (!token || req.headers.authorization !== `Bearer ${token}`) {
        options.onRequest({ ...base, call: calls, answer: 'forbidden' });
        return answer(res, 403, 'forbidden');
      }
      const body = await text(req);
      if (url === EXECUTE) calls++;
      if (url === EXECUTE && req.method === 'POST') {
        const scenario = scenarioOf(body);
        if (scenario === undefined) {
          options.onRequest({ ...base, call: calls, answer: 'not ours' });
          return answer(res, 200, '{}');
        }
        const plugin = scenario === null ? undefined : scripts.get(scenario);
        if (!plugin) {
          options.onRequest({ ...base, call: calls, answer: 'unknown scenario' });
          const message = `scripted: no scenario ${JSON.stringify(scenario)}`;
          return answer(res, 200, JSON.stringify({ node: { phase: 'Failed', message } }));
        }
        current = { scenario: scenario!, plugin };
      }
      if (!current) {
        options.onRequest({ ...base, call: calls, answer: 'no scenario yet' });
        return answer(res, 404, 'not found');
      }
      options.onRequest({ ...base, scenario: current.scenario, call: calls });
      current.plugin(req, res, body, calls);
    })();
  });
  await new Promise<void>((resolve) => server.listen(options.port, options.host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
