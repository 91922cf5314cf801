import type { ExecuteTemplateReply } from '@app/contract';
import type { ExecuteArgsOptions, PluginHarness, StandInServer } from '@app/local-agent';
import { executeArgs } from '@app/local-agent';

/** A template.execute request for the build plugin, as Argo's agent sends it. */
export function buildRequest(body: Record<string, unknown>, options: ExecuteArgsOptions = {}) {
  return executeArgs({ build: body }, options);
}

export interface Drive {
  replies: ExecuteTemplateReply[];
  last: ExecuteTemplateReply;
  /** Upstream requests made by each call after the first. */
  requestsPerPoll: number[];
}

/** Calls the plugin like the agent's requeues do (without waiting) until the node leaves Running. */
export async function drive(
  h: PluginHarness,
  request: unknown,
  upstream: StandInServer,
  maxCalls = 30,
): Promise<Drive> {
  const replies: ExecuteTemplateReply[] = [];
  const requestsPerPoll: number[] = [];
  for (let i = 0; i < maxCalls; i++) {
    const before = upstream.calls.length;
    const reply = (await h.execute(request)).body;
    if (i > 0) requestsPerPoll.push(upstream.calls.length - before);
    replies.push(reply);
    if (reply.node?.phase !== 'Running') return { replies, last: reply, requestsPerPoll };
  }
  throw new Error(`still Running after ${maxCalls} calls: ${JSON.stringify(replies.at(-1))}`);
}

/** Output parameters of a reply as a map. */
export function outputs(reply: ExecuteTemplateReply): Record<string, string> {
  return Object.fromEntries((reply.node?.outputs?.parameters ?? []).map((p) => [p.name, p.value]));
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

let counter = 0;
/** A fresh workflow uid, so executions of different tests never share a key. */
export function uid(): string {
  counter++;
  return `7c1d0e2f-0000-4000-8000-${String(counter).padStart(12, '0')}`;
}
