import { IsOptional, IsString } from '../config/env-rules.js';
import type { PluginDefinition } from '../plugin-definition.js';
import {
  ambiguousVariables,
  overridePrefixOf,
  scopedSource,
  sharedVariables,
  structuralClashes,
} from './collection-env.js';

class AlphaEnv {
  @IsString() ALPHA_TOKEN!: string;
  @IsOptional() @IsString() UPSTREAM_TIMEOUT?: string;
}
class BetaEnv {
  @IsString() BETA_URL!: string;
  @IsOptional() @IsString() UPSTREAM_TIMEOUT?: string;
}
class PortEnv {
  @IsOptional() @IsString() PORT?: string;
}

const load = async () => class {};
const alpha: PluginDefinition = {
  name: 'alpha-one',
  key: 'alpha',
  port: 1,
  env: AlphaEnv,
  envPrefixes: ['ALPHA_'],
  load,
};
const beta: PluginDefinition = {
  name: 'beta',
  key: 'beta',
  port: 2,
  env: BetaEnv,
  envPrefixes: ['BETA_'],
  load,
};

describe('a plugin share of the collection environment', () => {
  const source = {
    ALPHA_TOKEN: 'alpha-secret',
    ALPHA_PROD_TOKEN: 'alpha-named-secret',
    BETA_URL: 'http://beta',
    ALPHA_ONE_CALL_DEADLINE: '5s',
    CALL_DEADLINE: '10s',
    BETA_UPSTREAM_TIMEOUT: '3s',
    ALPHA_ONE_UPSTREAM_TIMEOUT: '7s',
    PORT: '10430',
    PATH: '/usr/bin',
  };

  it('holds its declared variables, its families and the per-plugin kit settings, nothing of the others', () => {
    expect(scopedSource(alpha, [alpha, beta], source)).toEqual({
      ALPHA_TOKEN: 'alpha-secret',
      ALPHA_PROD_TOKEN: 'alpha-named-secret',
      CALL_DEADLINE: '5s',
      UPSTREAM_TIMEOUT: '7s',
    });
    expect(scopedSource(beta, [alpha, beta], source)).toEqual({
      BETA_URL: 'http://beta',
      CALL_DEADLINE: '10s',
      UPSTREAM_TIMEOUT: '3s',
    });
  });

  it('takes a shared variable unprefixed when only one enabled plugin declares it', () => {
    expect(scopedSource(beta, [beta], { BETA_URL: 'x', UPSTREAM_TIMEOUT: '2s' })).toEqual({
      BETA_URL: 'x',
      UPSTREAM_TIMEOUT: '2s',
    });
    expect(ambiguousVariables([beta], { UPSTREAM_TIMEOUT: '2s' })).toEqual([]);
  });

  it('refuses a variable several enabled plugins declare, naming the prefixed forms', () => {
    expect([...sharedVariables([alpha, beta]).keys()]).toEqual(['UPSTREAM_TIMEOUT']);
    expect(ambiguousVariables([alpha, beta], { UPSTREAM_TIMEOUT: '2s' })).toEqual([
      'UPSTREAM_TIMEOUT: is read by alpha-one and beta; set ALPHA_ONE_UPSTREAM_TIMEOUT or BETA_UPSTREAM_TIMEOUT instead',
    ]);
  });

  it('derives the per-plugin prefix from the plugin name', () => {
    expect(overridePrefixOf(alpha)).toBe('ALPHA_ONE_');
    expect(overridePrefixOf({ ...alpha, name: 'data-job-runner' })).toBe('DATA_JOB_RUNNER_');
  });
});

describe('plugins that cannot share a sidecar', () => {
  it('none for distinct keys, variables and families', () => {
    expect(structuralClashes([alpha, beta])).toEqual([]);
  });

  it('a plugin declaring a kit variable', () => {
    expect(structuralClashes([{ ...beta, env: PortEnv }])).toEqual([
      'beta: declares PORT, a variable of the kit or collection',
    ]);
  });

  it('two plugins answering one key', () => {
    expect(structuralClashes([alpha, { ...beta, aliases: { alpha: 'message' } }])).toEqual([
      'beta and alpha-one: both answer the key alpha',
    ]);
  });

  it('a family covering another plugin variable or family', () => {
    const greedy = { ...beta, envPrefixes: ['AL'] };
    expect(structuralClashes([alpha, greedy])).toEqual([
      'alpha-one: its family ALPHA_* overlaps AL* of beta',
      'beta: its family AL* covers ALPHA_TOKEN of alpha-one',
      'beta: its family AL* overlaps ALPHA_* of alpha-one',
      'beta: its family AL* overlaps ALPHA_ONE_* of alpha-one',
    ]);
  });
});
