import { PluginConfigError } from '@app/plugin-kit';

const FIELD_PROBLEM = /^[A-Za-z_][\w.]*: /;

/** Runs a provider block's work; its config errors name the field from the block's parent (`channel` → `slack.channel`). */
export async function inBlock<T>(name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof PluginConfigError && FIELD_PROBLEM.test(err.message))
      throw new PluginConfigError(`${name}.${err.message}`);
    throw err;
  }
}
