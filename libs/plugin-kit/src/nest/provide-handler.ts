import type { Provider, Type } from '@nestjs/common';
import { entryHandlerToken, PLUGIN_HANDLER, type PluginHandler } from '../execution/plugin-handler.js';

/** `providers: [NotifierHandler, provideHandler(NotifierHandler)]` registers a class as the plugin's handler. */
export function provideHandler(handler: Type<PluginHandler>): Provider {
  return { provide: PLUGIN_HANDLER, useExisting: handler };
}

/** `provideEntryHandler('approve', ApproveHandler)` registers the handler of the definition's entry `approve`. */
export function provideEntryHandler(key: string, handler: Type<PluginHandler>): Provider {
  return { provide: entryHandlerToken(key), useExisting: handler };
}
