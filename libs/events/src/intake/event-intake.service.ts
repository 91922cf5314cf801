import { Inject, Injectable } from '@nestjs/common';
import { eventEnv } from '@app/expr';
import type { Caller } from '../auth/caller.js';
import { EventDispatcher } from '../dispatch/event-dispatcher.js';
import { OperationQueue } from '../dispatch/operation-queue.js';
import { ManifestStore } from '../manifests/manifest-store.js';
import { ENDPOINT_OPTIONS, RECEIVED_LOG_BYTES, type ResolvedOptions } from '../options.js';
import { GrpcCode, GrpcError } from './grpc-status.js';

/** An event that reached the handler, with the status it was answered (emulator extra, for tests). */
export interface ReceivedEventRecord {
  namespace: string;
  discriminator: string;
  payload: unknown;
  metadata: Record<string, string[]>;
  /** Size of the body as received. */
  bytes: number;
  status: number;
  at: string;
}

export interface ReceivedEvent {
  namespace: string;
  discriminator: string;
  /** The decoded body; undefined for an empty body. */
  payload: unknown;
  metadata: Record<string, string[]>;
  /** Size of the raw body. */
  bytes: number;
  caller: Caller;
}

/** EventServer.ReceiveEvent: list the caller's bindings, build the environment, then dispatch (sync or queued). */
@Injectable()
export class EventIntakeService {
  constructor(
    @Inject(ENDPOINT_OPTIONS) private readonly options: ResolvedOptions,
    private readonly manifests: ManifestStore,
    private readonly dispatcher: EventDispatcher,
    private readonly queue: OperationQueue,
  ) {}

  /** The newest events, bounded by `receivedLogSize` and RECEIVED_LOG_BYTES of bodies. */
  private readonly log: ReceivedEventRecord[] = [];
  private logBytes = 0;
  private total = 0;

  /** The events kept (the newest; see `dropped()`). */
  received(): ReceivedEventRecord[] {
    return [...this.log];
  }

  /** Every event that reached the handler since start, kept or not. */
  receivedTotal(): number {
    return this.total;
  }

  /** Events no longer kept in the log (the oldest ones, past its bounds). */
  dropped(): number {
    return this.total - this.log.length;
  }

  private record(entry: ReceivedEventRecord): void {
    this.total++;
    this.log.push(entry);
    this.logBytes += entry.bytes;
    while (
      this.log.length > 0 &&
      (this.log.length > this.options.receivedLogSize || this.logBytes > RECEIVED_LOG_BYTES)
    )
      this.logBytes -= this.log.shift()!.bytes;
  }

  async receive(event: ReceivedEvent): Promise<void> {
    let status = 200;
    try {
      await this.handle(event);
    } catch (err) {
      status = err instanceof GrpcError ? err.httpStatus : 500;
      throw err;
    } finally {
      const { namespace, discriminator, payload, metadata, bytes } = event;
      this.record({
        namespace,
        discriminator,
        payload: payload ?? null,
        metadata,
        bytes,
        status,
        at: new Date().toISOString(),
      });
    }
  }

  private async handle(event: ReceivedEvent): Promise<void> {
    const { namespace, caller } = event;
    if (!caller.can('list workfloweventbindings', namespace))
      throw new GrpcError(
        GrpcCode.PermissionDenied,
        caller.forbidden('list workfloweventbindings', namespace),
      );
    const bindings = this.manifests.listBindings(namespace, this.options.instanceId);
    const env = eventEnv(event.payload, event.metadata, event.discriminator, namespace);
    const operation = { namespace, bindings, env, caller };
    if (this.options.asyncDispatch) {
      const queued = this.queue.offer(async () => {
        await this.dispatcher.dispatch(operation);
      });
      if (!queued) throw new GrpcError(GrpcCode.Unavailable, 'operation queue full');
      return;
    }
    const errors = await this.dispatcher.dispatch(operation);
    if (errors.length > 0)
      throw new GrpcError(GrpcCode.Internal, `failed to dispatch event: [${errors.join(' ')}]`);
  }
}
