import { timingSafeEqual } from 'node:crypto';
import type { StandInRequest } from './stand-in-request.js';

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The credential in `Authorization: <scheme> <credential>`, if the scheme matches (case-insensitive). */
export function credential(req: StandInRequest, scheme: string): string | undefined {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const space = header.indexOf(' ');
  if (space < 0 || header.slice(0, space).toLowerCase() !== scheme.toLowerCase()) return undefined;
  return header.slice(space + 1);
}

export function hasBearer(req: StandInRequest, token: string): boolean {
  const given = credential(req, 'Bearer');
  return given !== undefined && same(given, token);
}

export function hasBasic(req: StandInRequest, user: string, password: string): boolean {
  const given = credential(req, 'Basic');
  return given !== undefined && same(Buffer.from(given, 'base64').toString('utf8'), `${user}:${password}`);
}
