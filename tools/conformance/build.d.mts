/** Bundles the CLI into one self-contained ES module; resolves with its path. */
export declare function buildConformance(options?: { outfile?: string }): Promise<string>;
export declare const defaultOutfile: string;
