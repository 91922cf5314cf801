import { IsNotEmpty, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { IsPlainObject } from '../../dto/validators.js';

/** A Standard state machine, or a version or alias of one. */
export const STATE_MACHINE_ARN =
  /^arn:aws[a-z-]*:states:[a-z0-9-]+:\d{12}:stateMachine:[A-Za-z0-9_-]{1,80}(:[A-Za-z0-9_-]{1,80})?$/;

/** `stepFunctions:` — start an execution of a Standard state machine. */
export class StepFunctionsBlock {
  @IsString()
  @Matches(STATE_MACHINE_ARN, {
    message:
      'stateMachineArn must be a state machine ARN (arn:aws:states:<region>:<account>:stateMachine:<name>)',
  })
  stateMachineArn!: string;

  /** The execution's input: an object (sent as JSON) or JSON text. */
  @IsOptional()
  @ValidateIf((_o, v) => typeof v !== 'string')
  @IsPlainObject({ message: 'input must be an object or JSON text' })
  input?: Record<string, unknown> | string;

  /** Prefix of the execution name; the plugin appends part of the execution key so the name is one per step. */
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,40}$/, {
    message: 'name must use letters, digits, "_" or "-" (at most 40)',
  })
  name?: string;

  /** X-Ray trace header passed to the execution. */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  traceHeader?: string;

  static problems(block: StepFunctionsBlock): string[] {
    if (typeof block.input !== 'string') return [];
    try {
      JSON.parse(block.input);
      return [];
    } catch {
      return ['stepFunctions.input: must be valid JSON text when it is a string'];
    }
  }
}
