import { formatDuration, parseDuration, tryParseDuration } from '@app/contract';

// The value checks shared by the env rules (read at start-up, without class-validator) and the decorators of
// plugin bodies (class-validator's ValidateBy).

export interface GoDurationBounds {
  /** Smallest allowed value, as a Go duration (`1s`). */
  min?: string;
  /** Largest allowed value, as a Go duration (`24h`). */
  max?: string;
}

/** The check of a Go duration within bounds, and what a bad value is told (`must be a Go duration … between 1s and 5m`). */
export function goDurationCheck(bounds: GoDurationBounds): {
  valid(value: unknown): boolean;
  problem: string;
} {
  const min = bounds.min === undefined ? undefined : parseDuration(bounds.min);
  const max = bounds.max === undefined ? undefined : parseDuration(bounds.max);
  const range =
    min !== undefined && max !== undefined
      ? ` between ${formatDuration(min)} and ${formatDuration(max)}`
      : min !== undefined
        ? ` of at least ${formatDuration(min)}`
        : max !== undefined
          ? ` of at most ${formatDuration(max)}`
          : '';
  return {
    valid(value: unknown): boolean {
      const ms = tryParseDuration(value);
      return ms !== undefined && (min === undefined || ms >= min) && (max === undefined || ms <= max);
    },
    problem: `must be a Go duration such as 30s or 1m30s${range}`,
  };
}

export const NOT_HTTP_URL = 'must be an http(s) URL';

/**
 * `undefined` for an absolute http(s) URL with a host (`http://jenkins:8080/`, `https://slack.com/api/`), else
 * the problem. Parsed as the clients will parse it (WHATWG URL), which is also far cheaper at start-up than
 * validator.js' isURL (its first call compiles the IPv4/IPv6 and host patterns).
 */
export function httpUrlProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || !/^https?:\/\//i.test(value) || /\s/.test(value)) return NOT_HTTP_URL;
  try {
    return new URL(value).hostname ? undefined : NOT_HTTP_URL;
  } catch {
    return NOT_HTTP_URL;
  }
}
