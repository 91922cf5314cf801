import { IsOptional } from 'class-validator';
import { GITLAB_KEY_VARIABLE } from '../../build/correlation-key.js';
import { gitlabProjectProblem, gitRefProblem, Satisfies } from '../../dto/path-rules.js';
import { IsScalarMap, type ScalarMap } from '../../dto/scalar-map.validator.js';

/** `gitlab: { project: "group/proj" | 42, ref: "main", variables?: {...} }` */
export class GitLabBuildSpec {
  @Satisfies(gitlabProjectProblem)
  project!: string | number;

  @Satisfies(gitRefProblem)
  ref!: string;

  @IsOptional()
  @IsScalarMap({
    maxEntries: 200,
    keyPattern: /^[A-Za-z0-9_]{1,255}$/,
    keyRule: 'letters, digits and _ only',
    reserved: [GITLAB_KEY_VARIABLE],
  })
  variables?: ScalarMap;

  static problems(_block: object, { unstableIsSuccess }: { unstableIsSuccess?: boolean }): string[] {
    return unstableIsSuccess ? ['unstableIsSuccess: only applies to jenkins builds, not gitlab'] : [];
  }
}
