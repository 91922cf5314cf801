// Decorator metadata matters only to the plugin modules (Nest's injector, class-transformer's @Type), which load
// on the first own call; so does this polyfill, rather than at start-up.
import 'reflect-metadata';
import { Module, type DynamicModule, type Provider, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { validatePluginConfig, type ConfigValidation } from '../config/plugin-config.js';
import { PLUGIN_HANDLER, type PluginHandler } from '../execution/plugin-handler.js';
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
  close(): Promise<void>;
}

export interface RuntimeDependencies {
  env?: { cls: Type; value: object };
  logger: PluginLogger;
  redactor: Redactor;
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
  const handler = app.get<PluginHandler>(PLUGIN_HANDLER, { strict: false });
  if (!handler || typeof handler.execute !== 'function' || typeof handler.configClass !== 'function') {
    throw new Error('the plugin module must provide a handler (execute + configClass) under PLUGIN_HANDLER');
  }
  return {
    handler,
    validateConfig: (body) => validatePluginConfig(handler.configClass, body),
    close: () => app.close(),
  };
}
