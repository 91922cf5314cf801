import { ValidateBy, buildMessage, type ValidationOptions } from 'class-validator';

/**
 * `undefined` for an absolute http(s) URL with a host (`http://jenkins:8080/`, `https://slack.com/api/`), else
 * the problem. Parsed as the clients will parse it (WHATWG URL), which is also far cheaper at start-up than
 * validator.js' isURL (its first call compiles the IPv4/IPv6 and host patterns).
 */
export function httpUrlProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || !/^https?:\/\//i.test(value) || /\s/.test(value))
    return 'must be an http(s) URL';
  try {
    return new URL(value).hostname ? undefined : 'must be an http(s) URL';
  } catch {
    return 'must be an http(s) URL';
  }
}

/** An absolute http(s) URL (see httpUrlProblem). */
export function IsHttpUrl(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isHttpUrl',
      validator: {
        validate: (value: unknown) => httpUrlProblem(value) === undefined,
        defaultMessage: buildMessage((prefix) => `${prefix}$property must be an http(s) URL`, options),
      },
    },
    options,
  );
}
