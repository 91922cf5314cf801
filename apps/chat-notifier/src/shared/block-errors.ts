import { PluginConfigError } from '@app/plugin-kit';

const FIELD_PROBLEM = /^[A-Za-z_][\w.]*: /;

/** A config error about a field of the body's root (`rules.0.approvers`), not of the provider block. */
export class BodyFieldError extends PluginConfigError {}

/** Runs a provider block's work; its config errors name the field from the block's parent (`channel` → `slack.channel`). */
export async function inBlock<T>(name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (
      err instanceof PluginConfigError &&
      !(err instanceof BodyFieldError) &&
      FIELD_PROBLEM.test(err.message)
    )
      throw new PluginConfigError(`${name}.${err.message}`);
    throw err;
  }
}
