/** The packages `npm run packages` builds, from libs/<lib>. */
export declare const PACKAGES: Array<{
  lib: string;
  description: string;
  entries: string[];
  internal?: string[];
  data?: string[];
  peers: string[];
}>;
export declare const SCOPE: string;
/** Writes each package into `<out>/<lib>`; resolves with their folders. */
export declare function buildPackages(out?: string): Promise<string[]>;
/** `npm pack` of each folder into `destination`; the tarballs' paths. */
export declare function packAll(dirs: string[], destination: string): string[];
/** The package names a module's text imports from node_modules. */
export declare function importedPackages(text: string): string[];
