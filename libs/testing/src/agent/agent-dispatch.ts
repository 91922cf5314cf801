import type { NodeResult } from '@app/contract';
import { PluginCallError, type DecodedReply, type PluginRpcClient } from './plugin-rpc-client.js';

export interface DispatchResult {
  node: NodeResult;
  /** Requeue (ms) the agent will honour: 0 for Succeeded or when absent. */
  requeueMs: number;
  /** The plugin whose reply carried the node. */
  plugin: string;
}

/**
 * workflow/executor/agent.go executePluginTemplate: plugins are asked in order with ONE shared reply object
 * (fields decoded from an earlier plugin's reply leak into the next); the first reply with a node wins; an
 * error from any plugin ends the dispatch at once (the remaining plugins are not tried).
 */
export async function executePluginTemplate(
  clients: PluginRpcClient[],
  body: string,
): Promise<DispatchResult> {
  const shared: DecodedReply = {};
  for (const client of clients) {
    const reply = await client.executeTemplate(body);
    if (reply) {
      if (reply.requeue !== undefined) {
        shared.requeue = reply.requeue;
        shared.requeueMs = reply.requeueMs;
      }
      if (reply.node) shared.node = reply.node;
    }
    if (shared.node) {
      const requeueMs = shared.node.phase === 'Succeeded' ? 0 : Math.max(0, shared.requeueMs ?? 0);
      return { node: shared.node, requeueMs, plugin: client.plugin.name };
    }
  }
  throw new PluginCallError('no plugin executed the template', false);
}
