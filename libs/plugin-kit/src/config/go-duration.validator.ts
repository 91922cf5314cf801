import { ValidateBy, buildMessage, type ValidationOptions } from 'class-validator';
import { formatDuration, parseDuration, tryParseDuration } from '@app/contract';

export interface GoDurationBounds {
  /** Smallest allowed value, as a Go duration (`1s`). */
  min?: string;
  /** Largest allowed value, as a Go duration (`24h`). */
  max?: string;
}

/** A Go duration string (`30s`, `1m30s`, `2h`) within optional bounds. */
export function IsGoDuration(bounds: GoDurationBounds = {}, options?: ValidationOptions): PropertyDecorator {
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
  return ValidateBy(
    {
      name: 'isGoDuration',
      validator: {
        validate(value: unknown): boolean {
          const ms = tryParseDuration(value);
          return ms !== undefined && (min === undefined || ms >= min) && (max === undefined || ms <= max);
        },
        defaultMessage: buildMessage(
          (prefix) => `${prefix}$property must be a Go duration such as 30s or 1m30s${range}`,
          options,
        ),
      },
    },
    options,
  );
}
