import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { VERSION } from './version.js';

it('VERSION is the version of the published package', () => {
  const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '../package.json'), 'utf8')) as {
    version: string;
  };
  expect(VERSION).toBe(pkg.version);
});
