import { Module } from '@nestjs/common';
import { ENDPOINT_OPTIONS, type ResolvedOptions } from '../options.js';
import { ManifestStore } from './manifest-store.js';

/** Bindings and templates loaded at start-up. */
@Module({
  providers: [
    {
      provide: ManifestStore,
      inject: [ENDPOINT_OPTIONS],
      useFactory: (options: ResolvedOptions) => new ManifestStore(options.objects, options.namespaceDefault),
    },
  ],
  exports: [ManifestStore],
})
export class ManifestsModule {}
