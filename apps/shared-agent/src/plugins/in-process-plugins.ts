import {
  ARGO_RPC_TIMING,
  decodeArgoReply,
  PluginCallError,
  retryTransient,
  type ArgoReply,
  type PluginCaller,
  type RpcTiming,
  type WriteGuard,
} from '@app/argo-agent';
import { OverloadedError, type PluginLogger, type TemplateDispatcher } from '@app/plugin-kit';

/**
 * The collection's plugins, called in process: what their contract front does after the token check (body
 * limit, JSON, dispatch by key, `{}` for a key none of them answers, 503 when a plugin runs all the executions
 * it may), and what Argo's RPC client does with the answer (the reply decoded by Go's rules into the shared
 * reply, a 503 retried with the same backoff). No HTTP, no token: the agent and the plugins are one process.
 */
export class InProcessPlugins implements PluginCaller {
  readonly name = 'in-process';

  constructor(
    private readonly router: TemplateDispatcher,
    private readonly bodyLimit: number,
    private readonly logger: PluginLogger,
    private readonly timing: RpcTiming = ARGO_RPC_TIMING,
    private readonly random: () => number = Math.random,
  ) {}

  call(body: string, reply: ArgoReply, mayWrite?: WriteGuard): Promise<ArgoReply | null> {
    if (Buffer.byteLength(body) > this.bodyLimit)
      return Promise.reject(
        new PluginCallError(`413 Payload Too Large: request body larger than ${this.bodyLimit} bytes`, false),
      );
    return retryTransient(this.timing, this.random, () => {
      // In process, the execution starts with this synchronous call: asked right before it, as a socket's write.
      const refused = mayWrite?.();
      if (refused) throw new PluginCallError(`not sent: ${refused}`, false);
      return this.once(body, reply);
    });
  }

  /** The hosted plugin's cancel of the work this call's execution started (see TemplateDispatcher.cancel). */
  async cancel(body: string): Promise<boolean> {
    return (await this.router.cancel?.(JSON.parse(body))) ?? false;
  }

  private async once(body: string, reply: ArgoReply): Promise<ArgoReply> {
    let answer: unknown;
    try {
      answer = await this.router.execute(JSON.parse(body));
    } catch (err) {
      if (err instanceof OverloadedError) throw new PluginCallError(err.message, true);
      this.logger.error({ err }, 'unexpected error in an in-process plugin');
      // What the front answers for a failure it did not expect.
      throw new PluginCallError('400 Bad Request: bad request', false);
    }
    return decodeArgoReply(JSON.stringify(answer), reply);
  }
}
