import { Module } from '@nestjs/common';
import { provideHandler } from '@app/plugin-kit';
import { ArgoEventClient } from './argo/argo-event-client.js';
import { EventEmitterHandler } from './event-emitter.handler.js';

@Module({ providers: [ArgoEventClient, EventEmitterHandler, provideHandler(EventEmitterHandler)] })
export class EventEmitterModule {}
