import * as cv from 'class-validator';
import * as rules from './env-rules.js';
import { IsGoDuration as CvIsGoDuration } from './go-duration.validator.js';
import { IsHttpUrl as CvIsHttpUrl } from './http-url.validator.js';

/**
 * The env rules against class-validator itself: for every rule, alone and combined as the env classes combine
 * them, and every value, the same verdict and the same messages in the same order.
 */
type Pair = [PropertyDecorator, PropertyDecorator];

const pairs: Record<string, Pair> = {
  IsOptional: [rules.IsOptional(), cv.IsOptional()],
  IsString: [rules.IsString(), cv.IsString()],
  IsNotEmpty: [rules.IsNotEmpty(), cv.IsNotEmpty()],
  IsInt: [rules.IsInt(), cv.IsInt()],
  IsBoolean: [rules.IsBoolean(), cv.IsBoolean()],
  Min: [rules.Min(1), cv.Min(1)],
  Max: [rules.Max(10), cv.Max(10)],
  IsIn: [rules.IsIn(['debug', 'info']), cv.IsIn(['debug', 'info'])],
  Matches: [rules.Matches(/^\S+$/), cv.Matches(/^\S+$/)],
  MatchesWithMessage: [
    rules.Matches(/^[a-z]+$/i, { message: '$property: $value is not $constraint1' }),
    cv.Matches(/^[a-z]+$/i, { message: '$property: $value is not $constraint1' }),
  ],
  IsGoDuration: [
    rules.IsGoDuration({ min: '100ms', max: '29s' }),
    CvIsGoDuration({ min: '100ms', max: '29s' }),
  ],
  IsGoDurationMax: [rules.IsGoDuration({ max: '5m' }), CvIsGoDuration({ max: '5m' })],
  IsHttpUrl: [rules.IsHttpUrl(), CvIsHttpUrl()],
};

// Top to bottom, as written above a field (applied bottom-up, like TypeScript does).
const combinations: string[][] = [
  ...Object.keys(pairs).map((name) => [name]),
  ['IsString', 'IsNotEmpty'],
  ['IsOptional', 'IsString'],
  ['IsOptional', 'IsInt', 'Min', 'Max'],
  ['IsInt', 'Min', 'Max'],
  ['IsOptional', 'IsString', 'Matches'],
  ['IsOptional', 'IsString', 'MatchesWithMessage'],
  ['IsBoolean', 'IsOptional'],
  ['IsOptional', 'IsHttpUrl'],
  ['IsIn', 'IsString'],
];

const values: unknown[] = [
  undefined,
  null,
  '',
  ' ',
  'x',
  'info',
  'two words',
  '$&',
  0,
  1,
  5,
  11,
  -1,
  1.5,
  Number.NaN,
  true,
  false,
  'true',
  '30s',
  '45s',
  '50ms',
  'http://jenkins:8080/',
  'ftp://host/',
  [],
  {},
];

function classWith(names: string[], side: 0 | 1): new () => { VALUE?: unknown } {
  const cls = class Sample {
    VALUE?: unknown;
  };
  for (const name of [...names].reverse()) pairs[name][side](cls.prototype, 'VALUE');
  return cls;
}

const describeValue = (v: unknown) =>
  typeof v === 'number' && Number.isNaN(v) ? 'NaN' : (JSON.stringify(v) ?? 'undefined');

describe('env rules', () => {
  it.each(combinations.map((c) => [c.join(' + '), c]))(
    '%s: as class-validator for every value',
    (_label, names) => {
      const ours = classWith(names as string[], 0);
      const theirs = classWith(names as string[], 1);
      for (const value of values) {
        const a = Object.assign(new ours(), { VALUE: value });
        const b = Object.assign(new theirs(), { VALUE: value });
        const expected = cv
          .validateSync(b, { validationError: { target: false, value: false } })
          .map((e) => ({ property: e.property, constraints: Object.entries(e.constraints ?? {}) }));
        const actual = rules
          .checkEnv(a)
          .map((e) => ({ property: e.property, constraints: Object.entries(e.constraints) }));
        expect({ value: describeValue(value), problems: actual }).toEqual({
          value: describeValue(value),
          problems: expected,
        });
      }
    },
  );

  it('declares the variables in the order they are written, with those a class inherits', () => {
    class Base {
      @rules.IsString() FIRST = 'a';
      @rules.IsOptional() SECOND?: string;
    }
    class Derived extends Base {
      @rules.IsOptional() @rules.IsInt() THIRD?: number;
    }
    expect(rules.envProperties(Base)).toEqual(['FIRST', 'SECOND']);
    expect(rules.envProperties(Derived)).toEqual(['THIRD', 'FIRST', 'SECOND']);
    expect(rules.checkEnv(Object.assign(new Derived(), { FIRST: 1, THIRD: 'x' }))).toEqual([
      { property: 'THIRD', value: 'x', constraints: { isInt: 'THIRD must be an integer number' } },
      { property: 'FIRST', value: 1, constraints: { isString: 'FIRST must be a string' } },
    ]);
  });
});
