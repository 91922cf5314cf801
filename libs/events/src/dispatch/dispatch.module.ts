import { Module } from '@nestjs/common';
import { ManifestsModule } from '../manifests/manifests.module.js';
import { RecorderModule } from '../recorder/recorder.module.js';
import { SubmitModule } from '../submit/submit.module.js';
import { EventDispatcher } from './event-dispatcher.js';
import { OperationQueue } from './operation-queue.js';

/** Per-binding dispatch and the async operation queue. */
@Module({
  imports: [ManifestsModule, SubmitModule, RecorderModule],
  providers: [EventDispatcher, OperationQueue],
  exports: [EventDispatcher, OperationQueue],
})
export class DispatchModule {}
