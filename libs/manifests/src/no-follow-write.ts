import {
  closeSync,
  constants,
  lstatSync,
  mkdirSync,
  openSync,
  readlinkSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { dirname, relative, sep } from 'node:path';

/**
 * A generated file whose path is a symbolic link, or lies under one: written through, it would overwrite the
 * link's target (a `README.md -> ~/.bashrc` planted in a plugin directory), so plugin:build refuses it.
 */
export class SymlinkRefusal extends Error {
  constructor(
    readonly path: string,
    readonly link: string,
  ) {
    super(
      `${link} is a symbolic link${linkTarget(link)}: plugin:build does not write ${link === path ? '' : `${path} `}through it; remove the link and build again`,
    );
    this.name = 'SymlinkRefusal';
  }
}

function linkTarget(link: string): string {
  try {
    return ` (to ${readlinkSync(link)})`;
  } catch {
    return '';
  }
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * Throws SymlinkRefusal when `path`, or a directory between `base` (the plugin or manifests directory the
 * caller chose, links allowed) and it, is a symbolic link.
 */
export function refuseLinks(path: string, base: string): void {
  const parts = relative(base, path).split(sep);
  let at = base;
  for (const part of parts) {
    at = `${at}${sep}${part}`;
    if (lstatOrUndefined(at)?.isSymbolicLink()) throw new SymlinkRefusal(path, at);
  }
}

/**
 * Writes a generated file below `base` without following a link: refuseLinks first, then an open with
 * O_NOFOLLOW, so a link made between the check and the write is refused too rather than written through.
 */
export function writeNoFollow(path: string, content: string, base: string, mode = 0o666): void {
  refuseLinks(path, base);
  mkdirSync(dirname(path), { recursive: true });
  let fd: number;
  try {
    fd = openSync(
      path,
      constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW,
      mode,
    );
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw new SymlinkRefusal(path, path);
    throw err;
  }
  try {
    writeFileSync(fd, content);
  } finally {
    closeSync(fd);
  }
}
