import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { IsGoDuration, type ConfigClass } from '@app/plugin-kit';
import { EmptyAsAbsent, NameList } from '../shared/body-fields.js';
import { withProviderBlocks } from '@app/plugin-kit/providers/provider-blocks.js';

export const ON_TIMEOUT = ['fail', 'approve', 'reject'] as const;
export type OnTimeout = (typeof ON_TIMEOUT)[number];

/** The longest a gate may wait: a week (a step left open longer is forgotten, not decided). */
export const MAX_TIMEOUT = '168h';
export const DEFAULT_TIMEOUT = '24h';

/** `minApprovals` as a number: a parameter gives it as a string. */
const AsCount = () =>
  Transform(({ value }) =>
    value === '' || value === null
      ? undefined
      : typeof value === 'string' && /^\d+$/.test(value)
        ? Number(value)
        : value,
  );

/** One group of approvers with its own count: every rule of a gate must be met. */
export class ApprovalRule {
  /** Users and groups in the provider's own ids, as the block's approvers; a list or a comma-separated string. */
  @NameList(
    {
      name: 'isRuleApprovers',
      pattern: /^[A-Za-z0-9@._:/^-]{1,120}$/,
      // A mention as Slack (`<@U…>`, `<!subteam^S…>`) or Discord (`<@!1…>`) writes it: the id.
      normalise: (a) => a.replace(/^<(?:@!?|!subteam\^)([^>|]+)(?:\|[^>]*)?>$/, '$1'),
      message: 'must be 1 to 50 approvers: user or group ids as the provider block takes them',
    },
    1,
  )
  approvers!: string[];

  /** Distinct people of this rule who must approve. */
  @AsCount()
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(20)
  minApprovals?: number;
}

/** The fields of an `approve` body besides its one provider block. */
export class ApproveSettings {
  /** Distinct listed people who must approve. */
  @AsCount()
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(20)
  minApprovals?: number;

  /** How long the gate waits for a decision (Go duration). */
  @EmptyAsAbsent()
  @IsOptional()
  @IsGoDuration({ min: '1s', max: MAX_TIMEOUT })
  timeout?: string;

  /** What the gate decides when nobody did in time: fail (the default), approve or reject. */
  @EmptyAsAbsent()
  @IsOptional()
  @IsIn(ON_TIMEOUT, { message: `must be one of ${ON_TIMEOUT.join(', ')}` })
  onTimeout?: OnTimeout;

  /** The workflow's creator cannot approve it: their answers are ignored; a creator not known fails the gate. */
  @IsOptional()
  @IsBoolean()
  excludeCreator?: boolean;

  /**
   * The creator (an email or a username) where the agent does not say (Argo's agent pods): a WorkflowTemplate
   * fills it from `{{workflow.labels.workflows.argoproj.io/creator-email}}`. Ignored under the shared agent,
   * which reads the Workflow's labels itself.
   */
  @EmptyAsAbsent()
  @IsOptional()
  @IsString()
  @Length(1, 320)
  creator?: string;

  /** Only an answer with a reason after its keyword (`approve: ship it`) counts; a reaction never does. */
  @IsOptional()
  @IsBoolean()
  requireComment?: boolean;

  /** Groups of approvers, each with its own count (instead of `minApprovals`): the gate passes when all are met. */
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  @Type(() => ApprovalRule)
  rules?: ApprovalRule[];
}

/** The body fields a provider's channels may not support, each named by the one that asks for it. */
export const GATE_FEATURES = ['excludeCreator', 'rules', 'requireComment'] as const;
export type GateFeature = (typeof GATE_FEATURES)[number];

/**
 * The class of the body under `plugin.approve`: the settings above and one optional block per approval
 * provider (`approve: {slack: {...}}`); that exactly one is given is the gate's check.
 */
export function approveConfigClass(blocks: ReadonlyArray<{ key: string; config: ConfigClass }>): ConfigClass {
  return withProviderBlocks(ApproveSettings, blocks);
}
