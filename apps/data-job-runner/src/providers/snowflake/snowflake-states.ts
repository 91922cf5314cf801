import type { MappedState } from '../../job/job-run.js';
import { isJson } from '../upstream-reply.js';

/** The SQL state Snowflake gives a statement that was cancelled (SYSTEM$CANCEL_QUERY, the cancel endpoint). */
const CANCELLED_SQL_STATE = '57014';
/** …and the code of a cancel (not a statement or warehouse timeout, which share the SQL state). */
const CANCELLED_CODE = '000604';

/**
 * A statement's state from the HTTP status of its reply: 202 QueryStatus (in progress), 200 ResultSet
 * (succeeded), 422 QueryFailureStatus (failed; cancelled when code 000604), 408 (the statement's own timeout
 * cancelled it: failed). upstreamState is `<word> (<code>[/<sqlState>])`, e.g. `failed (002003/42S02)`.
 */
export function mapSnowflakeReply(status: number, body: unknown): MappedState {
  const b = isJson(body) ? body : {};
  const code = typeof b.code === 'string' ? b.code : '';
  const sqlState = typeof b.sqlState === 'string' ? b.sqlState : '';
  const said = typeof b.message === 'string' && b.message !== '' ? b.message : undefined;
  const words = (word: string, withSqlState = false) =>
    `${word} (${code || 'no code'}${withSqlState && sqlState ? `/${sqlState}` : ''})`;
  switch (status) {
    case 202:
      return { state: 'running', upstreamState: words('in progress') };
    case 200:
      return { state: 'succeeded', upstreamState: words('success') };
    case 408:
      return { state: 'failed', upstreamState: words('timed out', true), message: said };
    case 422:
      return code === CANCELLED_CODE && sqlState === CANCELLED_SQL_STATE
        ? { state: 'cancelled', upstreamState: words('cancelled', true), message: said }
        : { state: 'failed', upstreamState: words('failed', true), message: said };
    default:
      return { state: 'running', upstreamState: `HTTP ${status} ${words('unknown')}`, unknown: true };
  }
}
