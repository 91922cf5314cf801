// What the plugin kit leaves to the plugin (its peer dependencies): the plugin's own Nest and validators, one copy
// of each. A --standalone repository depends on them at the repository's ranges.
export const PLUGIN_PEERS = [
  '@nestjs/common',
  '@nestjs/core',
  'class-transformer',
  'class-validator',
  'reflect-metadata',
  'rxjs',
];
