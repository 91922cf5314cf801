import { httpUrlProblem } from '@app/plugin-kit/config/value-checks.js';

/** One executor plugin server the agent calls over HTTP. */
export interface ExternalPluginSpec {
  name: string;
  url: string;
}

const NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** `hello=http://127.0.0.1:4355, other=http://…`: names as Argo's sidecars are named, http(s) URLs. */
export function parseExternalPlugins(text: string | undefined): {
  plugins: ExternalPluginSpec[];
  problems: string[];
} {
  const plugins: ExternalPluginSpec[] = [];
  const problems: string[] = [];
  for (const entry of (text ?? '').split(/[,;\n]/).map((e) => e.trim())) {
    if (!entry) continue;
    const problem = (what: string) => problems.push(`AGENT_EXTERNAL_PLUGINS: "${entry}": ${what}`);
    const eq = entry.indexOf('=');
    if (eq < 0) {
      problem('expected <name>=<url>');
      continue;
    }
    const name = entry.slice(0, eq).trim();
    const url = entry.slice(eq + 1).trim();
    if (!NAME.test(name)) {
      problem(`${JSON.stringify(name)} is not a plugin name (lower-case letters, digits and -)`);
      continue;
    }
    if (httpUrlProblem(url) !== undefined) {
      problem('the URL must be http(s)');
      continue;
    }
    if (plugins.some((p) => p.name === name)) {
      problem(`${name} is listed twice`);
      continue;
    }
    plugins.push({ name, url: url.replace(/\/+$/, '') });
  }
  return { plugins, problems };
}
