import { IsOptional, IsString, Length, Matches } from 'class-validator';
import { AdminChoice, EmptyAsAbsent } from '../../shared/body-fields.js';
import { ApprovalText, Approvers } from '../../shared/approval-fields.js';

/** A change's number: `CHG0030001`. */
export const CHANGE_NUMBER = /^CHG\d{7,10}$/;

/** A sys_id: 32 hex digits. */
const SYS_ID = /^[0-9a-f]{32}$/;

/** A change's `description` is a 4,000-character string by default; room for the instructions the gate adds. */
const TEXT_LIMIT = 3_500;

/**
 * `approve: {servicenow: {...}}`: a change request the gate opens (one per step), or one it waits on (`change`);
 * ServiceNow's approval records of the listed approvers decide.
 */
export class ServicenowApprovalConfig {
  /** An existing change to wait on instead of opening one (`CHG0030001`). */
  @EmptyAsAbsent()
  @IsOptional()
  @Matches(CHANGE_NUMBER, { message: 'must be a change number such as CHG0030001' })
  change?: string;

  /** What the approvers are asked: the change's description (its first line is the short description). */
  @ApprovalText(TEXT_LIMIT)
  text!: string;

  /** The sys_ids of the users (sys_user) whose approval counts; a list or a comma-separated string. */
  @Approvers({
    name: 'isServicenowApprovers',
    pattern: SYS_ID,
    normalise: (a) => a.toLowerCase(),
    message: 'must be 1 to 50 approvers: sys_ids of users (32 hex digits)',
  })
  approvers!: string[];

  /** The `type` of the change the gate opens: `normal` unless set. */
  @EmptyAsAbsent()
  @IsOptional()
  @IsString()
  @Length(1, 40)
  type?: string;

  /** An instance configured by the admin (APPROVALS_SERVICENOW_<NAME>_URL …); the default one when absent. */
  @AdminChoice('instance', 'ops')
  instance?: string;
}
