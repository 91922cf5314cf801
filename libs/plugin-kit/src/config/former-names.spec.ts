import type { PluginDefinition } from '../plugin-definition.js';
import { IsOptional, IsString } from './env-rules.js';
import { formerNamesOf, formerNamesWarning, resolveFormerNames } from './former-names.js';

class ChatEnv {
  @IsOptional() @IsString() CHAT_TOKEN?: string;
  @IsOptional() @IsString() NAMESPACE_SCOPES?: string;
}
const chat: PluginDefinition = {
  name: 'chat-notifier',
  formerName: 'slack-notifier',
  key: 'notify',
  port: 1,
  env: ChatEnv,
  envPrefixes: ['SLACK_'],
  load: async () => class {},
};

describe('names of 0.1.0 kept for one release', () => {
  it('a value from the former Secret stands in for an unset variable, and is named', () => {
    expect(
      resolveFormerNames({ FORMER_CHAT_TOKEN: 'old', FORMER_OTHER: 'o', OTHER: 'new', FORMER_EMPTY: '' }),
    ).toEqual({
      source: { CHAT_TOKEN: 'old', OTHER: 'new' },
      used: ['CHAT_TOKEN (from the 0.1.0 Secret or ConfigMap)'],
    });
    expect(resolveFormerNames({ CHAT_TOKEN: '', FORMER_CHAT_TOKEN: 'old' }).source).toEqual({
      CHAT_TOKEN: 'old',
    });
  });

  it("a renamed plugin's former collection prefix stands in for its new one, for the variables it reads", () => {
    expect(
      resolveFormerNames(
        {
          SLACK_NOTIFIER_NAMESPACE_SCOPES: 'slack/ops=sre',
          SLACK_NOTIFIER_MAX_EXECUTIONS: '4',
          CHAT_NOTIFIER_MAX_EXECUTIONS: '8',
          // a Slack workspace called NOTIFIER, not a prefixed setting
          SLACK_NOTIFIER_BOT_TOKEN: 'xoxb-1',
        },
        [chat],
      ),
    ).toEqual({
      source: {
        CHAT_NOTIFIER_NAMESPACE_SCOPES: 'slack/ops=sre',
        CHAT_NOTIFIER_MAX_EXECUTIONS: '8',
        SLACK_NOTIFIER_BOT_TOKEN: 'xoxb-1',
      },
      used: ['SLACK_NOTIFIER_NAMESPACE_SCOPES (now CHAT_NOTIFIER_NAMESPACE_SCOPES)'],
    });
  });

  it('reads what an env class reports, and says it all in one line', () => {
    expect(formerNamesOf({ formerNames: ['A_B_X (now A_X_B)'] })).toEqual(['A_B_X (now A_X_B)']);
    expect(formerNamesOf({})).toEqual([]);
    expect(formerNamesWarning(['A', 'B'])).toBe(
      'deprecated names in use, read for this release only (docs/install.md, "Upgrading"): A, B',
    );
  });
});
