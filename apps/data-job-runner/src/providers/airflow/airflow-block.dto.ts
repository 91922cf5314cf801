import { IsISO8601, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { IsPlainObject } from '../../dto/validators.js';

/** `airflow:` — trigger a DAG run with `conf`. */
export class AirflowBlock {
  /** Airflow's own dag_id rule (letters, digits, `_ . -`), and never only dots (it goes into a URL path). */
  @IsString()
  @Matches(/^(?!\.+$)[A-Za-z0-9_.-]{1,250}$/, {
    message: 'dagId must be a DAG id: letters, digits, "_", "." and "-"',
  })
  dagId!: string;

  /** Passed to the DAG run as is (`dag_run.conf`). */
  @IsOptional()
  @IsPlainObject()
  conf?: Record<string, unknown>;

  /** The run's logical date, with a timezone (Airflow 3 rejects naive ones). */
  @IsOptional()
  @IsISO8601({ strict: true })
  @Matches(/(Z|[+-]\d{2}:?\d{2})$/, { message: 'logicalDate must include a timezone (Z or ±hh:mm)' })
  logicalDate?: string;

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  note?: string;
}
