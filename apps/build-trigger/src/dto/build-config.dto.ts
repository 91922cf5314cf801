import { Type } from 'class-transformer';
import { IsBoolean, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { IsGoDuration } from '@app/plugin-kit';
import { GITHUB_KEY_INPUT, GITLAB_KEY_VARIABLE, JENKINS_KEY_PARAMETER } from '../build/correlation-key.js';
import {
  githubRepoProblem,
  githubWorkflowProblem,
  gitlabProjectProblem,
  gitRefProblem,
  isDotSegment,
  jenkinsJobProblem,
  Satisfies,
} from './path-rules.js';
import { IsScalarMap, type ScalarMap } from './scalar-map.validator.js';
import { BooleanLike, NumberAsText } from './text-transforms.js';

export const GITHUB_MAX_INPUTS = 25;

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
}

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
}

/** The plugin body under `plugin.build`: exactly one provider block plus the shared settings. */
export class BuildConfig {
  @IsOptional()
  @ValidateNested()
  @Type(() => JenkinsBuildSpec)
  jenkins?: JenkinsBuildSpec;

  @IsOptional()
  @ValidateNested()
  @Type(() => GitHubBuildSpec)
  github?: GitHubBuildSpec;

  @IsOptional()
  @ValidateNested()
  @Type(() => GitLabBuildSpec)
  gitlab?: GitLabBuildSpec;

  /** false: succeed as soon as the build is started. */
  @IsOptional()
  @BooleanLike()
  @IsBoolean()
  wait = true;

  @IsOptional()
  @IsGoDuration({ min: '1s', max: '24h' })
  pollInterval = '30s';

  /** On expiry the build is cancelled upstream and the node fails. */
  @IsOptional()
  @IsGoDuration({ min: '1s', max: '720h' })
  timeout?: string;

  /** Separates otherwise identical triggers in one workflow (e.g. "{{node.name}}" or "{{retries}}"). */
  @IsOptional()
  @NumberAsText()
  @IsString()
  @MaxLength(256)
  key?: string;

  /** A named server the admin configured (JENKINS_<NAME>_URL, ...); default: the unnamed one. */
  @IsOptional()
  @Matches(/^[A-Za-z0-9]+([-_][A-Za-z0-9]+)*$/, {
    message: 'server must be a server name such as prod or eu-west',
  })
  @MaxLength(64)
  server?: string;

  /** Jenkins only: an UNSTABLE build counts as success. */
  @IsOptional()
  @BooleanLike()
  @IsBoolean()
  unstableIsSuccess = false;
}
