import { UpstreamError } from '@app/plugin-kit';

export type Json = Record<string, unknown>;

export const isJson = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The object in a reply body, or a permanent error naming what was expected. */
export function jsonBody(data: unknown, what: string): Json {
  if (!isJson(data)) throw UpstreamError.permanent(`${what}: the reply is not a JSON object`);
  return data;
}

export function upstreamStatus(err: unknown): number | undefined {
  return err instanceof UpstreamError ? err.status : undefined;
}

/** Keeps only the defined entries (so optional body fields are omitted, not sent as null). */
export function defined<T extends Json>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
