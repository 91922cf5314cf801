/** Kept equal to tools/conformance/package.json (checked by version.spec.ts). */
export const VERSION = '0.1.0';

export const TOOL_NAME = 'argo-plugin-conformance';
