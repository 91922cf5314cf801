import { IsOptional } from 'class-validator';
import { GITHUB_KEY_INPUT } from '../../build/correlation-key.js';
import { githubRepoProblem, githubWorkflowProblem, gitRefProblem, Satisfies } from '../../dto/path-rules.js';
import { IsScalarMap, type ScalarMap } from '../../dto/scalar-map.validator.js';

export const GITHUB_MAX_INPUTS = 25;

/** `github: { repo: "org/repo", workflow: "ci.yml" | 1234, ref: "main", inputs?: {...} }` */
export class GitHubBuildSpec {
  @Satisfies(githubRepoProblem)
  repo!: string;

  @Satisfies(githubWorkflowProblem)
  workflow!: string | number;

  @Satisfies(gitRefProblem)
  ref!: string;

  @IsOptional()
  @IsScalarMap({
    maxEntries: GITHUB_MAX_INPUTS,
    keyPattern: /^[A-Za-z_][A-Za-z0-9_-]*$/,
    keyRule: 'letters, digits, _ and -, not starting with a digit',
    reserved: [GITHUB_KEY_INPUT],
  })
  inputs?: ScalarMap;

  static problems(_block: object, { unstableIsSuccess }: { unstableIsSuccess?: boolean }): string[] {
    return unstableIsSuccess ? ['unstableIsSuccess: only applies to jenkins builds, not github'] : [];
  }
}
