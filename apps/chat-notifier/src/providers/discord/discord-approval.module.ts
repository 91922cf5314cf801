import { providerContextToken, type ProviderContext } from '@app/plugin-kit/providers/provider-context.js';
import type { ApprovalSlot } from '../../approvals/approval-channel.js';
import { DiscordApprovalConfig } from './discord-approval-config.dto.js';
import { DiscordApprovalChannels } from './discord-approval-channel.js';
import type { DiscordSettings } from './discord-settings.js';

/** Discord's approvals, through the notifier's bots. */
export const discordApproval: ApprovalSlot<DiscordApprovalConfig> = {
  block: DiscordApprovalConfig,
  channels: {
    inject: [providerContextToken('discord')],
    useFactory: ({ settings, redactor, timeoutMs }: ProviderContext<DiscordSettings>) =>
      new DiscordApprovalChannels(settings.bots, settings.webhooks.size > 0, redactor, timeoutMs),
  },
};
