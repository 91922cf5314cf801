import type { IncomingMessage } from 'node:http';

/** A request as a stand-in's route sees it. */
export interface StandInRequest {
  method: string;
  /** Path without the query string, percent-encoding kept as sent. */
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  /** Raw body text. */
  text: string;
  /** Parsed body: JSON for application/json, an object for form bodies, else undefined. */
  body: unknown;
  /** Named path parameters from the route pattern. */
  params: Record<string, string>;
}
