// Decorator metadata matters only to the plugin modules (Nest's injector, class-transformer's @Type), which load
// on the first own call; so does this polyfill, rather than at start-up.
import 'reflect-metadata';
import { Module, type DynamicModule, type Provider, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { validatePluginConfig, type ConfigValidation } from '../config/plugin-config.js';
import { entryHandlerToken, PLUGIN_HANDLER, type PluginHandler } from '../execution/plugin-handler.js';
import type { LoadedHandler } from '../execution/template-executor.js';
import { PluginLogger } from '../logging/plugin-logger.js';
import { Redactor } from '../logging/redactor.js';
import { NestLoggerAdapter } from './nest-logger.adapter.js';

/** Holds what the kit gives every plugin module: its env object, the logger and the redactor. */
@Module({})
class PluginKitCoreModule {
  static register(providers: Provider[]): DynamicModule {
    return {
      module: PluginKitCoreModule,
      global: true,
      providers,
      exports: providers.map(
        (p) => (typeof p === 'function' ? p : (p as { provide: unknown }).provide) as never,
      ),
    };
  }
}

@Module({})
class PluginRootModule {}

export interface PluginRuntime {
  handler: PluginHandler;
  /** Checks a plugin body against the handler's config class (class-transformer and its rules load with this file). */
  validateConfig(body: unknown): ConfigValidation<object>;
  /** The handlers of the definition's entries, by key. */
  entries: ReadonlyMap<string, LoadedHandler>;
  close(): Promise<void>;
}

export interface RuntimeDependencies {
  env?: { cls: Type; value: object };
  logger: PluginLogger;
  redactor: Redactor;
  /** The definition's entries: the module provides a handler for each (provideEntryHandler). */
  entries?: readonly string[];
}

/**
 * Builds the plugin's Nest application context (DI only, no HTTP server: the kit's front owns HTTP) and
 * returns the handler the plugin module provides under PLUGIN_HANDLER.
 */
export async function createPluginRuntime(
  pluginModule: Type | DynamicModule,
  deps: RuntimeDependencies,
): Promise<PluginRuntime> {
  const providers: Provider[] = [
    { provide: PluginLogger, useValue: deps.logger },
    { provide: Redactor, useValue: deps.redactor },
  ];
  if (deps.env) providers.push({ provide: deps.env.cls, useValue: deps.env.value });
  const app = await NestFactory.createApplicationContext(
    { module: PluginRootModule, imports: [PluginKitCoreModule.register(providers), pluginModule] },
    { logger: new NestLoggerAdapter(deps.logger.child({ component: 'nest' })), abortOnError: false },
  );
  const loaded = (token: symbol, name: string): LoadedHandler => {
    const handler = app.get<PluginHandler>(token, { strict: false });
    if (!handler || typeof handler.execute !== 'function' || typeof handler.configClass !== 'function') {
      throw new Error(`the plugin module must provide a handler (execute + configClass) under ${name}`);
    }
    return { handler, validateConfig: (body) => validatePluginConfig(handler.configClass, body) };
  };
  return {
    ...loaded(PLUGIN_HANDLER, 'PLUGIN_HANDLER'),
    entries: new Map(
      (deps.entries ?? []).map((key) => [
        key,
        loaded(entryHandlerToken(key), `provideEntryHandler('${key}')`),
      ]),
    ),
    close: () => app.close(),
  };
}
