import { Module, type DynamicModule } from '@nestjs/common';
import { ENDPOINT_OPTIONS, type ResolvedOptions } from '../options.js';
import { EndpointLogger } from './endpoint-logger.js';

/** The endpoint's options and logger, available to every feature module. */
@Module({})
export class CoreModule {
  static register(options: ResolvedOptions): DynamicModule {
    return {
      module: CoreModule,
      global: true,
      providers: [{ provide: ENDPOINT_OPTIONS, useValue: options }, EndpointLogger],
      exports: [ENDPOINT_OPTIONS, EndpointLogger],
    };
  }
}
