export type EnvSource = Record<string, string | undefined>;

/** The workspace used when a body names none: its token is SLACK_BOT_TOKEN. */
export const DEFAULT_WORKSPACE = 'default';

const NAMED_TOKEN = /^SLACK_BOT_TOKEN_(.+)$/;
const WORKSPACE_NAME = /^[A-Z0-9][A-Z0-9_]{0,39}$/;

/**
 * Slack tokens start with `xox` (`xoxb-` bot, `xoxp-` user, `xoxe.xoxb-` rotating) and never contain
 * whitespace. Surrounding whitespace is dropped: a Secret created with `echo` ends in a newline.
 */
export function tokenProblem(token: string): string | undefined {
  if (!token.startsWith('xox')) return 'must be a Slack bot token (xoxb-…)';
  if (/\s/.test(token)) return 'must be a Slack bot token without spaces or line breaks';
  return undefined;
}

/**
 * Named workspaces: every `SLACK_BOT_TOKEN_<NAME>` variable, selected in a body with `workspace: <name>`
 * (case-insensitive). Problems name the variable, never its value.
 */
export function readNamedTokens(source: EnvSource): { tokens: Map<string, string>; problems: string[] } {
  const tokens = new Map<string, string>();
  const problems: string[] = [];
  for (const [name, raw] of Object.entries(source)) {
    const match = NAMED_TOKEN.exec(name);
    if (!match || raw === undefined || raw === '') continue;
    const workspace = match[1];
    if (!WORKSPACE_NAME.test(workspace)) {
      problems.push(
        `${name}: the workspace name must be letters, digits and underscores (SLACK_BOT_TOKEN_OPS)`,
      );
      continue;
    }
    if (workspace === DEFAULT_WORKSPACE.toUpperCase()) {
      problems.push(`${name}: "default" is the workspace of SLACK_BOT_TOKEN; pick another name`);
      continue;
    }
    const token = raw.trim();
    const problem = tokenProblem(token);
    if (problem) problems.push(`${name}: ${problem}`);
    else tokens.set(workspace.toLowerCase(), token);
  }
  return { tokens, problems };
}
