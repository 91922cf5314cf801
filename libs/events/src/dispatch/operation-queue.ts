import { Inject, Injectable } from '@nestjs/common';
import { EndpointLogger } from '../logging/endpoint-logger.js';
import { ENDPOINT_OPTIONS, type ResolvedOptions } from '../options.js';

type Job = () => Promise<void>;

/**
 * The async dispatch queue: a buffered channel of `queueSize` operations drained by `workers` workers, like
 * the Argo Server's. An idle worker takes an operation at once; otherwise it waits in the buffer; a full
 * buffer refuses it (the caller answers 503). Workers can be paused (tests, demos) to show a full queue.
 */
@Injectable()
export class OperationQueue {
  private readonly buffer: Job[] = [];
  private busy = 0;
  private paused = false;
  private closed = false;
  private readonly waiters: Array<() => void> = [];

  constructor(
    @Inject(ENDPOINT_OPTIONS) private readonly options: ResolvedOptions,
    private readonly logger: EndpointLogger,
  ) {}

  /** Queues an operation; false when the buffer is full (or the queue is closed). */
  offer(job: Job): boolean {
    if (this.closed) return false;
    if (!this.paused && this.busy < this.options.workers) {
      this.work(job);
      return true;
    }
    if (this.buffer.length >= this.options.queueSize) return false;
    this.buffer.push(job);
    return true;
  }

  get depth(): number {
    return this.buffer.length;
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.pump();
  }

  /** Resolves when nothing is queued or running. */
  idle(): Promise<void> {
    if (this.busy === 0 && (this.buffer.length === 0 || this.paused)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Closes the queue and drains it, as the server does on shutdown. */
  async close(): Promise<void> {
    this.closed = true;
    this.resume();
    await this.idle();
  }

  private work(job: Job): void {
    this.busy++;
    void job()
      .catch((err: unknown) => this.logger.error(`event operation failed: ${(err as Error).message}`))
      .finally(() => {
        this.busy--;
        this.pump();
      });
  }

  private pump(): void {
    while (!this.paused && this.busy < this.options.workers && this.buffer.length > 0)
      this.work(this.buffer.shift()!);
    if (this.busy === 0 && (this.buffer.length === 0 || this.paused))
      this.waiters.splice(0).forEach((w) => w());
  }
}
