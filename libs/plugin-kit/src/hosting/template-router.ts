import type { ExecuteTemplateReply } from '@app/contract';
import type { TemplateDispatcher } from '../http/contract-server.js';

/**
 * Sends each template to the dispatcher of its plugin key (`template.plugin.<key>`); `{}` for a key nobody
 * here answers, so the agent offers the template to the next sidecar.
 */
export class TemplateRouter implements TemplateDispatcher {
  constructor(private readonly routes: ReadonlyMap<string, TemplateDispatcher>) {}

  get keys(): string[] {
    return [...this.routes.keys()];
  }

  execute(body: unknown): Promise<ExecuteTemplateReply> {
    return this.routeOf(body)?.execute(body) ?? Promise.resolve({});
  }

  cancel(body: unknown): Promise<boolean> {
    return this.routeOf(body)?.cancel?.(body) ?? Promise.resolve(false);
  }

  private routeOf(body: unknown): TemplateDispatcher | undefined {
    const plugin = (body as { template?: { plugin?: unknown } } | null)?.template?.plugin;
    if (plugin === null || typeof plugin !== 'object' || Array.isArray(plugin)) return undefined;
    for (const key of Object.keys(plugin)) {
      const route = this.routes.get(key);
      if (route) return route;
    }
    return undefined;
  }
}
