import { ValidateBy, buildMessage, type ValidationOptions } from 'class-validator';
import { goDurationCheck, type GoDurationBounds } from './value-checks.js';

export type { GoDurationBounds } from './value-checks.js';

/** A Go duration string (`30s`, `1m30s`, `2h`) within optional bounds. */
export function IsGoDuration(bounds: GoDurationBounds = {}, options?: ValidationOptions): PropertyDecorator {
  const { valid, problem } = goDurationCheck(bounds);
  return ValidateBy(
    {
      name: 'isGoDuration',
      validator: {
        validate: valid,
        defaultMessage: buildMessage((prefix) => `${prefix}$property ${problem}`, options),
      },
    },
    options,
  );
}
