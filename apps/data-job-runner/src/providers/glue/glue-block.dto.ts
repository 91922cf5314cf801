import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { IsScalarMap, type Scalar } from '../../dto/validators.js';

/** `glue:` — start a run of a Glue job. */
export class GlueBlock {
  @IsString()
  @Matches(/^[\w .-]{1,255}$/, {
    message: 'jobName must be a Glue job name (letters, digits, spaces, "_", "." or "-")',
  })
  jobName!: string;

  /** Job arguments (`--date: 2024-01-01`); each name starts with `--`; sent as strings. */
  @IsOptional()
  @IsScalarMap()
  arguments?: Record<string, Scalar>;

  /** Glue's own timeout of the run, in minutes. */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10_080)
  timeoutMinutes?: number;

  @IsOptional()
  @IsIn(['G.1X', 'G.2X', 'G.4X', 'G.8X', 'G.025X', 'Z.2X'])
  workerType?: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(299)
  numberOfWorkers?: number;

  @IsOptional()
  @IsIn(['STANDARD', 'FLEX'])
  executionClass?: string;

  static problems(block: GlueBlock): string[] {
    const names = Object.keys(block.arguments ?? {});
    const problems = names
      .filter((n) => !n.startsWith('--'))
      .map((n) => `glue.arguments.${n}: must start with --`);
    if (names.includes('--argo-execution-key'))
      problems.push('glue.arguments.--argo-execution-key: is set by the plugin');
    return problems;
  }
}
