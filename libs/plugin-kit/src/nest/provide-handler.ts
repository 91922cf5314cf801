import type { Provider, Type } from '@nestjs/common';
import { PLUGIN_HANDLER, type PluginHandler } from '../execution/plugin-handler.js';

/** `providers: [NotifierHandler, provideHandler(NotifierHandler)]` registers a class as the plugin's handler. */
export function provideHandler(handler: Type<PluginHandler>): Provider {
  return { provide: PLUGIN_HANDLER, useExisting: handler };
}
