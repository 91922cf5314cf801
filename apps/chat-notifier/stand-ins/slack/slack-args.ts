/** A Slack error reply: HTTP 200 with `{ok:false, error}` plus extra fields (`needed`, `provided`, `errors`...). */
export class SlackFailure extends Error {
  constructor(
    readonly error: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(error);
  }
}

/**
 * The arguments of one Web API call. Slack reads them from the query string and from the body, which is
 * form-encoded (every value a string; nested values JSON-encoded, as @slack/web-api sends them) or JSON.
 */
export class SlackArgs {
  constructor(private readonly values: Record<string, unknown>) {}

  has(name: string): boolean {
    const v = this.values[name];
    return v !== undefined && v !== null && v !== '';
  }

  string(name: string): string | undefined {
    const v = this.values[name];
    if (v === undefined || v === null || v === '') return undefined;
    return typeof v === 'string'
      ? v
      : typeof v === 'number' || typeof v === 'boolean'
        ? String(v)
        : undefined;
  }

  bool(name: string, fallback = false): boolean {
    const v = this.values[name];
    if (typeof v === 'boolean') return v;
    if (typeof v === 'string') return v === 'true' || v === '1';
    if (typeof v === 'number') return v !== 0;
    return fallback;
  }

  int(name: string, fallback: number): number {
    const v = this.values[name];
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
    return Number.isFinite(n) ? n : fallback;
  }

  /** A structured argument: JSON text in a form body, or the value itself in a JSON body. */
  json(name: string, formatError: string): unknown {
    const v = this.values[name];
    if (v === undefined || v === null || v === '') return undefined;
    if (typeof v !== 'string') return v;
    try {
      return JSON.parse(v);
    } catch {
      throw new SlackFailure(formatError);
    }
  }
}

/** Opaque cursors, like Slack's (base64 of a position). */
export function encodeCursor(offset: number): string {
  return Buffer.from(`offset:${offset}`).toString('base64');
}

export function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const m = /^offset:(\d+)$/.exec(Buffer.from(cursor, 'base64').toString('utf8'));
  if (!m) throw new SlackFailure('invalid_cursor');
  return Number(m[1]);
}

/** One page of `items` from the cursor, with Slack's `response_metadata.next_cursor` ("" on the last page). */
export function page<T>(
  items: T[],
  args: SlackArgs,
  defaultLimit: number,
  maxLimit: number,
): { items: T[]; nextCursor: string; hasMore: boolean } {
  const start = decodeCursor(args.string('cursor'));
  const limit = Math.min(Math.max(args.int('limit', defaultLimit), 1), maxLimit);
  const slice = items.slice(start, start + limit);
  const hasMore = start + limit < items.length;
  return { items: slice, nextCursor: hasMore ? encodeCursor(start + limit) : '', hasMore };
}
