import { IsIn, IsOptional, IsString, MaxLength, ValidateBy } from 'class-validator';
import { MessageContent } from '../../shared/message-content.dto.js';
import { EmptyAsAbsent, AdminChoice } from '../../shared/body-fields.js';

export const PAGERDUTY_ACTIONS = ['trigger', 'acknowledge', 'resolve'] as const;
export type PagerDutyAction = (typeof PAGERDUTY_ACTIONS)[number];
export const SEVERITIES = ['critical', 'error', 'warning', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Acknowledge and resolve name the alert they act on. */
function IsNeededForFollowUps(): PropertyDecorator {
  return ValidateBy({
    name: 'isNeededForFollowUps',
    validator: {
      validate: (value: unknown, args) =>
        value === undefined
          ? (args?.object as PagerDutyConfig).action === 'trigger'
          : typeof value === 'string' && value.length <= 255,
      defaultMessage: (args) =>
        args?.value === undefined
          ? `is required to ${(args?.object as PagerDutyConfig).action} an alert (the dedupKey output of the step that triggered it)`
          : 'must be text of at most 255 characters',
    },
  });
}

/**
 * `notify: {pagerduty: {...}}`: an Events API v2 event. A trigger opens an alert (or adds to the open one
 * with the same dedup key); acknowledge and resolve act on the alert a trigger opened.
 */
export class PagerDutyConfig extends MessageContent {
  @EmptyAsAbsent()
  @IsOptional()
  @IsIn(PAGERDUTY_ACTIONS, { message: `must be one of ${PAGERDUTY_ACTIONS.join(', ')}` })
  action: PagerDutyAction = 'trigger';

  /** The alert's key: default for a trigger, one derived from the execution; required for acknowledge/resolve. */
  @EmptyAsAbsent()
  @IsNeededForFollowUps()
  dedupKey?: string;

  /** critical, error, warning or info; by default from status (failed → error, warning → warning, else info). */
  @EmptyAsAbsent()
  @IsOptional()
  @IsIn(SEVERITIES, { message: `must be one of ${SEVERITIES.join(', ')}` })
  severity?: Severity;

  /** The affected system; default `argo-workflows/<namespace>/<workflow>`. */
  @EmptyAsAbsent()
  @IsOptional()
  @IsString()
  @MaxLength(255)
  source?: string;

  @EmptyAsAbsent()
  @IsOptional()
  @IsString()
  @MaxLength(255)
  component?: string;

  @EmptyAsAbsent()
  @IsOptional()
  @IsString()
  @MaxLength(255)
  group?: string;

  @EmptyAsAbsent()
  @IsOptional()
  @IsString()
  @MaxLength(255)
  class?: string;

  /** A service configured by the admin (PAGERDUTY_<NAME>_ROUTING_KEY); the default one when absent. */
  @AdminChoice('service', 'payments')
  service?: string;

  override needsContent(): boolean {
    return this.action === 'trigger';
  }
}
