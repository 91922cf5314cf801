import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/**
 * Compares a presented secret with a known one in time that depends on neither: both are hashed to 32 bytes
 * first, so neither the length nor the first differing character shows in the timing.
 */
export function sameSecret(presented: string, known: string): boolean {
  return timingSafeEqual(digest(presented), digest(known));
}
