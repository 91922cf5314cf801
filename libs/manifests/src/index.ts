export * from './configmap.js';
export * from './executor-plugin.js';
export * from './go-yaml.js';
export * from './lint.js';
export * from './plugin-build.js';
export * from './readme.js';
export * from './strict-fields.js';
export * from './collection.js';
