import { formatDuration, type ExecuteTemplateReply } from '@app/contract';
import type { TemplateDispatcher } from '../http/contract-server.js';
import { running } from '../execution/replies.js';

/**
 * At most `limit` calls of one plugin at a time; past it the call is answered `Running` with a requeue and
 * nothing is started (the agent calls again with the same body, hence the same execution key). It keeps one
 * plugin's burst from taking the event loop, the sockets and the memory of the others in a collection.
 */
export class ExecutionBound implements TemplateDispatcher {
  private active = 0;

  constructor(
    private readonly inner: TemplateDispatcher,
    readonly key: string,
    readonly limit: number,
    private readonly retryMs = 5000,
  ) {}

  get inFlight(): number {
    return this.active;
  }

  async execute(body: unknown): Promise<ExecuteTemplateReply> {
    if (this.active >= this.limit)
      return running(
        `${this.key}: busy (${this.limit} executions in flight); trying again in ${formatDuration(this.retryMs)}`,
        this.retryMs,
      );
    this.active++;
    try {
      return await this.inner.execute(body);
    } finally {
      this.active--;
    }
  }
}
