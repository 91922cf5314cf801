import type { DynamicModule } from '@nestjs/common';
import type { ApprovalModule, ApprovalReaders } from './approval-provider.js';
import { APPROVAL_PROVIDERS } from './approval-providers.js';
import { APPROVAL_READERS, ApprovalGate } from './approval-gate.js';
import { approveConfigClass } from './approve-config.dto.js';
import { PollSchedule } from './poll-schedule.js';

let loading: Promise<Array<ApprovalModule & { key: string }>> | undefined;

/** The Nest side of every approval provider of the table, loaded once. */
export function loadApprovalModules(): Promise<Array<ApprovalModule & { key: string }>> {
  loading ??= (async () => {
    const loaded: Array<ApprovalModule & { key: string }> = [];
    // One after the other, as the kit loads modules (concurrent imports race under Jest's ESM loader).
    for (const provider of APPROVAL_PROVIDERS) loaded.push({ key: provider.key, ...(await provider.load()) });
    return loaded;
  })();
  return loading;
}

/** What the `approve` key adds to the notifier's module: the readers' classes, their table, the gate. */
export async function approvalParts(): Promise<{
  providers: NonNullable<DynamicModule['providers']>;
  configClass: ReturnType<typeof approveConfigClass>;
}> {
  const modules = await loadApprovalModules();
  return {
    configClass: approveConfigClass(modules),
    providers: [
      ...modules.flatMap((m) => [...(m.helpers ?? []), m.readers]),
      {
        provide: APPROVAL_READERS,
        useFactory: (...readers: ApprovalReaders[]) => new Map(modules.map((m, i) => [m.key, readers[i]!])),
        inject: modules.map((m) => m.readers),
      },
      PollSchedule,
      ApprovalGate,
    ],
  };
}
