import { Module } from '@nestjs/common';
import { EventRecorder } from './event-recorder.js';

/** Kubernetes Events for binding errors. */
@Module({ providers: [EventRecorder], exports: [EventRecorder] })
export class RecorderModule {}
