import { Module } from '@nestjs/common';
import { ManifestsModule } from '../manifests/manifests.module.js';
import { RecorderModule } from '../recorder/recorder.module.js';
import { SubmitModule } from '../submit/submit.module.js';
import { EventDispatcher } from './event-dispatcher.js';
import { OperationQueue } from './operation-queue.js';
import { EvaluatorPool } from '../evaluation/evaluator-pool.js';
import { ENDPOINT_OPTIONS, type ResolvedOptions } from '../options.js';

/** Per-binding dispatch (evaluated by the evaluator processes) and the async operation queue. */
@Module({
  imports: [ManifestsModule, SubmitModule, RecorderModule],
  providers: [
    EventDispatcher,
    OperationQueue,
    {
      provide: EvaluatorPool,
      inject: [ENDPOINT_OPTIONS],
      useFactory: (options: ResolvedOptions) =>
        new EvaluatorPool({ size: options.workers, limits: options.expressionLimits }),
    },
  ],
  exports: [EventDispatcher, OperationQueue, EvaluatorPool],
})
export class DispatchModule {}
