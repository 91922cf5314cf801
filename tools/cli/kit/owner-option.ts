import { imagePrefixFor } from '@app/manifests';
import { UsageError } from './args.js';

/** The image prefix of `--owner` (a GitHub owner), or a usage error naming the option. */
export function imagePrefixOption(owner: string): string {
  try {
    return imagePrefixFor(owner);
  } catch (err) {
    throw new UsageError(`--owner: ${(err as Error).message}`);
  }
}
