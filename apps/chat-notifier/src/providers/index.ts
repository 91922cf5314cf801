import { ProviderTable } from '@app/plugin-kit';
import type { NotifierProviderDefinition } from './notifier-provider.js';
import { discord } from './discord/index.js';
import { email } from './email/index.js';
import { github } from './github/index.js';
import { googleChat } from './google-chat/index.js';
import { jira } from './jira/index.js';
import { mattermost } from './mattermost/index.js';
import { pagerduty } from './pagerduty/index.js';
import { servicenow } from './servicenow/index.js';
import { slack } from './slack/index.js';
import { teams } from './teams/index.js';

/**
 * The notifier's providers, in the order of the docs: a provider is its folder under providers/ and its line
 * here. The sidecar's variables, the body's `notify` blocks, the handler's table and a collection's families
 * all come from this list.
 */
export const PROVIDERS = new ProviderTable<NotifierProviderDefinition>([
  slack,
  teams,
  googleChat,
  mattermost,
  discord,
  email,
  pagerduty,
]);

/**
 * Every provider whose variables the sidecar reads: the notifier's, and GitHub's, Jira's and ServiceNow's
 * (approval gates only).
 */
export const PROVIDER_SETTINGS = new ProviderTable([...PROVIDERS.providers, github, jira, servicenow]);
