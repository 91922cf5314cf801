/** The plugin kit's peer dependencies: what a plugin brings itself. */
export declare const PLUGIN_PEERS: string[];
