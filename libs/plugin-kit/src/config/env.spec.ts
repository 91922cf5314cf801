import { jest } from '@jest/globals';
import * as cv from 'class-validator';
import { IsHttpUrl, IsInt, IsNotEmpty, IsOptional, IsString, Max } from './env-rules.js';
import {
  EnvBoolean,
  EnvInt,
  EnvValidationError,
  loadEnv,
  Secret,
  secretFieldsOf,
  type EnvExtras,
  type EnvSource,
} from './env.js';
import { KitEnv } from './kit-env.js';
import { declaredProperties } from './declared-properties.js';

class SampleEnv implements EnvExtras {
  @Secret()
  @IsString()
  @IsNotEmpty()
  SAMPLE_TOKEN!: string;

  @IsOptional()
  @IsHttpUrl()
  SAMPLE_URL = 'https://example.com';

  @EnvInt()
  @IsInt()
  @Max(10)
  SAMPLE_LIMIT = 5;

  @EnvBoolean()
  @IsOptional()
  SAMPLE_FLAG = false;

  named: string[] = [];

  loadExtras(source: EnvSource): string[] {
    this.named = Object.keys(source)
      .filter((k) => /^SAMPLE_TOKEN_[A-Z0-9_]+$/.test(k))
      .map((k) => k.slice(13).toLowerCase());
    return source.SAMPLE_TOKEN_BROKEN === '' ? ['SAMPLE_TOKEN_BROKEN: must not be empty'] : [];
  }
}

describe('loadEnv', () => {
  it('applies defaults, converts numbers and booleans, and reads named extras', () => {
    const env = loadEnv(SampleEnv, {
      SAMPLE_TOKEN: 't',
      SAMPLE_LIMIT: '7',
      SAMPLE_FLAG: 'true',
      SAMPLE_TOKEN_PROD: 'p',
    });
    expect(env).toMatchObject({
      SAMPLE_TOKEN: 't',
      SAMPLE_URL: 'https://example.com',
      SAMPLE_LIMIT: 7,
      SAMPLE_FLAG: true,
      named: ['prod'],
    });
  });

  it('names every bad variable in one error', () => {
    try {
      loadEnv(SampleEnv, { SAMPLE_URL: 'not a url', SAMPLE_LIMIT: 'eleven', SAMPLE_TOKEN_BROKEN: '' });
      throw new Error('expected a failure');
    } catch (err) {
      expect(err).toBeInstanceOf(EnvValidationError);
      const message = (err as Error).message;
      expect(message).toMatch(/^invalid configuration: /);
      for (const name of ['SAMPLE_TOKEN', 'SAMPLE_URL', 'SAMPLE_LIMIT', 'SAMPLE_TOKEN_BROKEN'])
        expect(message).toContain(`${name}:`);
    }
  });

  it('treats an empty value as unset', () => {
    expect(() => loadEnv(SampleEnv, { SAMPLE_TOKEN: '' })).toThrow(
      'invalid configuration: SAMPLE_TOKEN: is required',
    );
  });

  it('remembers which fields are secret', () => {
    expect(secretFieldsOf(SampleEnv)).toEqual(['SAMPLE_TOKEN']);
  });

  it('an env class inherits the secret fields of the class it extends, as it inherits its rules', () => {
    class ExtendedEnv extends SampleEnv {
      @Secret()
      @IsOptional()
      @IsString()
      EXTRA_PASSWORD?: string;
    }
    expect(secretFieldsOf(ExtendedEnv)).toEqual(['EXTRA_PASSWORD', 'SAMPLE_TOKEN']);
  });

  it('validates the kit settings every plugin shares', () => {
    expect(loadEnv(KitEnv, {})).toMatchObject({
      TOKEN_FILE: '/var/run/argo/token',
      CALL_DEADLINE: '20s',
      BODY_LIMIT: 1048576,
      HOST: '127.0.0.1',
    });
    const bad = () => loadEnv(KitEnv, { CALL_DEADLINE: '45s', PORT: '70000', LOG_LEVEL: 'loud' });
    expect(bad).toThrow('CALL_DEADLINE: must be a Go duration such as 30s or 1m30s between 100ms and 29s');
    expect(bad).toThrow('PORT: must not be greater than 65535');
    expect(bad).toThrow('LOG_LEVEL: must be one of the following values: debug, info, warn, error, silent');
  });
});

describe('an env class marked with class-validator instead of the env rules', () => {
  class Unmarked {
    @cv.IsString() UNMARKED_URL = 'x';
  }

  it('fails at start-up with a line that says what to use', () => {
    expect(() => loadEnv(Unmarked, { UNMARKED_URL: 'y' })).toThrow(
      "Unmarked declares no variable: mark each one with the kit's env rules",
    );
  });

  it("fails at start-up naming a variable marked with class-validator's IsString beside the env rules", () => {
    class Mixed {
      @IsString() READ_URL = 'x';
      @cv.IsString() UNREAD_URL = 'x';
    }
    class Provider extends Mixed {
      @IsOptional() @IsString() PROVIDER_TOKEN?: string;
    }
    const message = "marks UNREAD_URL with class-validator's decorators, which an env class never reads";
    expect(() => loadEnv(Mixed, { READ_URL: 'y', UNREAD_URL: 'y' })).toThrow(`Mixed ${message}`);
    expect(() => loadEnv(Provider, { READ_URL: 'y' })).toThrow(`Provider ${message}`);
  });
});

describe('declared properties of a class', () => {
  class Declared {
    @cv.IsString() FIRST!: string;
    @cv.IsOptional() @cv.IsInt() SECOND?: number;
  }

  it('scans the validation rules once per class and hands out one frozen list', () => {
    const storage = cv.getMetadataStorage();
    const scan = jest.spyOn(storage, 'getTargetValidationMetadatas');
    try {
      const first = declaredProperties(Declared);
      expect(() => (first as string[]).push('MUTATED')).toThrow(TypeError);
      expect(declaredProperties(Declared)).toBe(first);
      expect(declaredProperties(Declared)).toEqual(['FIRST', 'SECOND']);
      expect(scan.mock.calls.filter(([target]) => target === Declared)).toHaveLength(1);
    } finally {
      scan.mockRestore();
    }
  });
});
