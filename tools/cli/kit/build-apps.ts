import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Builds dist/apps/<app> for `apps` with tools/build.mjs of the checkout at `root` (loaded at run time, not
 * bundled: it finds the repository from its own place), once a command's arguments are checked, so that
 * `--help` and usage errors answer at once. Prints the build's line on stderr.
 */
export async function buildApps(root: string, apps: readonly string[]): Promise<void> {
  const script = pathToFileURL(join(root, 'tools/build.mjs')).href;
  const build = (await import(script)) as { buildApps(only: readonly string[]): Promise<string> };
  console.error(await build.buildApps(apps));
}
