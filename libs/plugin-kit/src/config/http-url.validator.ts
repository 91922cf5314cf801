import { ValidateBy, buildMessage, type ValidationOptions } from 'class-validator';
import { httpUrlProblem, NOT_HTTP_URL } from './value-checks.js';

export { httpUrlProblem } from './value-checks.js';

/** An absolute http(s) URL (see httpUrlProblem). */
export function IsHttpUrl(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isHttpUrl',
      validator: {
        validate: (value: unknown) => httpUrlProblem(value) === undefined,
        defaultMessage: buildMessage((prefix) => `${prefix}$property ${NOT_HTTP_URL}`, options),
      },
    },
    options,
  );
}
