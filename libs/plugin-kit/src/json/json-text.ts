import { JsonCostMeter, MAX_JSON_DEPTH, type JsonCostLimits } from './json-cost-meter.js';

/**
 * What a JSON text inside a field (a parameter holding blocks, facts, an event payload) may build once parsed.
 * The request body was bounded in values, but such a text counts there as one string: `[{},{},…]` in 1 MiB of it
 * would still build ~350,000 objects. As many values as a whole body may carry by default (BODY_MAX_VALUES).
 */
export const JSON_TEXT_LIMITS: JsonCostLimits = { maxValues: 20_000, maxDepth: MAX_JSON_DEPTH };

/** A JSON text that would build more than its limits allow; JSON.parse was not run. */
export class JsonTextTooCostlyError extends Error {
  constructor(limits: JsonCostLimits, excess: 'values' | 'depth') {
    super(
      `is a JSON string that ${excess === 'values' ? `holds more than ${limits.maxValues} values` : `is nested deeper than ${limits.maxDepth} levels`} (the most a field's JSON may build)`,
    );
    this.name = 'JsonTextTooCostlyError';
  }
}

/** JSON.parse, after the cost meter has read the text: throws JsonTextTooCostlyError or JSON.parse's SyntaxError. */
export function parseJsonText(text: string, limits: JsonCostLimits = JSON_TEXT_LIMITS): unknown {
  const excess = new JsonCostMeter(limits).feed(text);
  if (excess) throw new JsonTextTooCostlyError(limits, excess);
  return JSON.parse(text);
}
