import { Transform } from 'class-transformer';
import { ValidateBy, type ValidationOptions } from 'class-validator';

/** Slack's limit of blocks in one message. */
export const MAX_BLOCKS = 50;

export type Block = Record<string, unknown> & { type: string };

/** What a `blocks` value that is not valid JSON becomes, so the validator can say why. */
class UnparsableBlocks {
  constructor(readonly reason: string) {}
}

/**
 * `blocks` as an array, as one block, as Block Kit Builder's `{"blocks": [...]}` export, or as any of those
 * in a JSON string (what `{{inputs.parameters.blocks}}` gives).
 */
export const BlocksInput = (): PropertyDecorator =>
  Transform(({ value }) => {
    if (value === '' || value === null) return undefined;
    let parsed: unknown = value;
    if (typeof value === 'string') {
      try {
        parsed = JSON.parse(value);
      } catch (err) {
        return new UnparsableBlocks((err as Error).message);
      }
    }
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      const record = parsed as Record<string, unknown>;
      if (Array.isArray(record.blocks)) return record.blocks;
      return [record];
    }
    return parsed;
  });

function blocksProblem(value: unknown): string | undefined {
  if (value instanceof UnparsableBlocks) return `is not valid JSON (${value.reason})`;
  if (!Array.isArray(value))
    return 'must be a list of Block Kit blocks (or one block, or a JSON string of them)';
  if (value.length === 0) return 'must contain at least one block';
  if (value.length > MAX_BLOCKS)
    return `has ${value.length} blocks; Slack allows at most ${MAX_BLOCKS} in one message`;
  const bad = value.findIndex(
    (b) => !b || typeof b !== 'object' || Array.isArray(b) || typeof (b as Block).type !== 'string',
  );
  if (bad >= 0)
    return `entry ${bad} is not a Block Kit block (an object with a "type", e.g. {"type":"section",...})`;
  return undefined;
}

export function IsBlockList(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isBlockList',
      validator: {
        validate: (value: unknown) => blocksProblem(value) === undefined,
        defaultMessage: (args) => blocksProblem(args?.value) ?? 'is invalid',
      },
    },
    options,
  );
}
