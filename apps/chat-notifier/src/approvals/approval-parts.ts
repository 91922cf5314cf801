import type { Provider } from '@nestjs/common';
import { provideEntryHandler } from '@app/plugin-kit';
import { loadApprovalSlots } from '@app/plugin-kit/providers/provider-table.js';
import { PROVIDER_SETTINGS } from '../providers/index.js';
import type { ApprovalChannels, ApprovalSlot } from './approval-channel.js';
import { APPROVAL_CHANNELS, ApprovalGate } from './approval-gate.js';
import { approveConfigClass } from './approve-config.dto.js';
import { APPROVE_CONFIG, ApproveHandler } from './approve.handler.js';
import { PollSchedule } from './poll-schedule.js';

/** The Nest token of one provider's channels. */
const channelsToken = (key: string) => Symbol.for(`chat-notifier.approval-channels.${key}`);

/** What the `approve` entry adds to the notifier's module: each provider's channels, the gate, the handler. */
export async function approvalParts(): Promise<Provider[]> {
  const slots = [...(await loadApprovalSlots<ApprovalSlot>(PROVIDER_SETTINGS)).entries()].map(
    ([key, slot]) => ({ key, ...slot }),
  );
  return [
    ...slots.flatMap((slot) => [
      ...(slot.helpers ?? []),
      { provide: channelsToken(slot.key), ...slot.channels },
    ]),
    {
      provide: APPROVAL_CHANNELS,
      useFactory: (...channels: ApprovalChannels[]) => new Map(slots.map((s, i) => [s.key, channels[i]!])),
      inject: slots.map((s) => channelsToken(s.key)),
    },
    PollSchedule,
    ApprovalGate,
    {
      provide: APPROVE_CONFIG,
      useValue: approveConfigClass(slots.map((s) => ({ key: s.key, config: s.block }))),
    },
    ApproveHandler,
    provideEntryHandler('approve', ApproveHandler),
  ];
}
