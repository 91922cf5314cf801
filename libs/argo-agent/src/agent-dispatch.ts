import type { ArgoNodeResult, ArgoReply } from './argo-reply.js';
import type { WriteGuard } from './go-http-client.js';
import { PluginCallError, type PluginCaller } from './plugin-rpc-client.js';

export interface DispatchResult {
  node: ArgoNodeResult;
  /** The reply's requeue (ms; 0 when absent, and for Succeeded, which executePluginTemplate returns as 0). */
  requeueMs: number;
  /** The requeue as sent (`"30s"`). */
  requeue?: string;
  /** The plugin whose reply carried the node. */
  plugin: string;
}

/**
 * workflow/executor/agent.go executePluginTemplate: plugins are asked in order, every reply decoded into ONE
 * shared reply object (fields of an earlier plugin's reply stay unless overwritten); the first time the
 * object holds a node, that plugin wins; an error from any plugin ends the dispatch at once.
 */
export async function executePluginTemplate(
  clients: readonly PluginCaller[],
  body: string,
  mayWrite?: WriteGuard,
): Promise<DispatchResult> {
  const shared: ArgoReply = {};
  for (const client of clients) {
    await client.call(body, shared, mayWrite);
    if (shared.node) {
      const requeueMs = shared.node.phase === 'Succeeded' ? 0 : (shared.requeue?.ms ?? 0);
      return { node: shared.node, requeueMs, requeue: shared.requeue?.text, plugin: client.name };
    }
  }
  throw new PluginCallError('no plugin executed the template', false);
}
