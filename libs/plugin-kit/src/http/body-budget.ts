/** Bytes and JSON values (keys included) of request bodies. */
export interface BodyCost {
  bytes: number;
  values: number;
}

/**
 * What the bodies of the requests in flight may cost together, from their first byte until their reply is sent
 * (the parsed body is held that long). Each request takes its share chunk by chunk as it arrives. A heavy
 * request (past `light` in either measure) that would push the total past `capacity` is refused (the front
 * answers 503 + Retry-After, which the agent retries); a light one never is, and never waits for heavy ones:
 * one plugin's heavy call cannot starve another plugin's calls.
 */
export class BodyBudget {
  private bytes = 0;
  private values = 0;

  constructor(
    readonly capacity: BodyCost,
    readonly light: BodyCost,
  ) {}

  /** A request's share, empty at first. */
  open(): BodyShare {
    return new BodyShare(this);
  }

  /** Total taken now. */
  get taken(): BodyCost {
    return { bytes: this.bytes, values: this.values };
  }

  /** @internal Adds `bytes` and `values` for a share that would then hold `total`; false when refused. */
  grow(total: BodyCost, bytes: number, values: number): boolean {
    const light = total.bytes <= this.light.bytes && total.values <= this.light.values;
    const fits = this.bytes + bytes <= this.capacity.bytes && this.values + values <= this.capacity.values;
    if (!light && !fits) return false;
    this.bytes += bytes;
    this.values += values;
    return true;
  }

  /** @internal */
  shrink(cost: BodyCost): void {
    this.bytes -= cost.bytes;
    this.values -= cost.values;
  }
}

/** One request's part of the budget; given back once with release(). */
export class BodyShare {
  private held: BodyCost = { bytes: 0, values: 0 };
  private released = false;

  constructor(private readonly budget: BodyBudget) {}

  /** Takes `bytes` and `values` more; false (nothing taken) when the budget refuses. */
  grow(bytes: number, values: number): boolean {
    if (this.released) return false;
    const total = { bytes: this.held.bytes + bytes, values: this.held.values + values };
    if (!this.budget.grow(total, bytes, values)) return false;
    this.held = total;
    return true;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.budget.shrink(this.held);
  }
}

/** Full bodies the front holds at once (bytes and values alike). */
export const FULL_BODIES_IN_FLIGHT = 4;
/** A body within this part of both per-body limits is light (a real agent body is a few KiB and ~100 values). */
export const LIGHT_BODY_PART = 1 / 16;

/** The front's budget for per-body limits of `maxBytes` and `maxValues`. */
export function bodyBudgetFor(limits: { maxBytes: number; maxValues: number }): BodyBudget {
  const scaled = (factor: number): BodyCost => ({
    bytes: Math.floor(limits.maxBytes * factor),
    values: Math.floor(limits.maxValues * factor),
  });
  return new BodyBudget(scaled(FULL_BODIES_IN_FLIGHT), scaled(LIGHT_BODY_PART));
}
