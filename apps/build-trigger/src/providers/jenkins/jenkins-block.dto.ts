import { IsOptional, MaxLength } from 'class-validator';
import { JENKINS_KEY_PARAMETER } from '../../build/correlation-key.js';
import { isDotSegment, jenkinsJobProblem, Satisfies } from '../../dto/path-rules.js';
import { IsScalarMap, type ScalarMap } from '../../dto/scalar-map.validator.js';

/** `jenkins: { job: "folder/sub/job", branch?: "feature/x", parameters?: {...} }` */
export class JenkinsBuildSpec {
  /** Job name or folder path (`folder/sub/job`); each segment is one Jenkins item name. */
  @Satisfies(jenkinsJobProblem)
  @MaxLength(1000)
  job!: string;

  /** Multibranch: the branch job under `job` (a name with `/` is encoded the way Jenkins stores it). */
  @IsOptional()
  @Satisfies((b) =>
    typeof b !== 'string' || b === ''
      ? 'must be a branch name'
      : isDotSegment(b)
        ? 'must not be . or ..'
        : undefined,
  )
  @MaxLength(255)
  branch?: string;

  @IsOptional()
  @IsScalarMap({
    maxEntries: 200,
    keyPattern: /^[^\s=&][^=&]*$/,
    keyRule: 'no =, & or leading space',
    reserved: [JENKINS_KEY_PARAMETER],
  })
  parameters?: ScalarMap;
}
