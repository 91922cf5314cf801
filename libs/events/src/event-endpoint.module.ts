import { Module, type DynamicModule } from '@nestjs/common';
import { IntakeModule } from './intake/intake.module.js';
import { CoreModule } from './logging/core.module.js';
import type { ResolvedOptions } from './options.js';

/** The local Argo Server event endpoint as a Nest application. */
@Module({})
export class EventEndpointModule {
  static register(options: ResolvedOptions): DynamicModule {
    return { module: EventEndpointModule, imports: [CoreModule.register(options), IntakeModule] };
  }
}
