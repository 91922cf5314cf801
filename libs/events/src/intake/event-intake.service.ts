import { Inject, Injectable } from '@nestjs/common';
import { eventEnv } from '@app/expr';
import type { Caller } from '../auth/caller.js';
import { EventDispatcher } from '../dispatch/event-dispatcher.js';
import { OperationQueue } from '../dispatch/operation-queue.js';
import { ManifestStore } from '../manifests/manifest-store.js';
import { ENDPOINT_OPTIONS, type ResolvedOptions } from '../options.js';
import { GrpcCode, GrpcError } from './grpc-status.js';

/** An event that reached the handler, with the status it was answered (emulator extra, for tests). */
export interface ReceivedEventRecord {
  namespace: string;
  discriminator: string;
  payload: unknown;
  metadata: Record<string, string[]>;
  status: number;
  at: string;
}

export interface ReceivedEvent {
  namespace: string;
  discriminator: string;
  /** The decoded body; undefined for an empty body. */
  payload: unknown;
  metadata: Record<string, string[]>;
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

  private readonly log: ReceivedEventRecord[] = [];

  received(): ReceivedEventRecord[] {
    return [...this.log];
  }

  async receive(event: ReceivedEvent): Promise<void> {
    let status = 200;
    try {
      await this.handle(event);
    } catch (err) {
      status = err instanceof GrpcError ? err.httpStatus : 500;
      throw err;
    } finally {
      const { namespace, discriminator, payload, metadata } = event;
      this.log.push({
        namespace,
        discriminator,
        payload: payload ?? null,
        metadata,
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
