import { Type } from 'class-transformer';
import { IsBoolean, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { IsGoDuration } from '@app/plugin-kit';
import { GitHubBuildSpec } from '../providers/github/github-block.dto.js';
import { GitLabBuildSpec } from '../providers/gitlab/gitlab-block.dto.js';
import { JenkinsBuildSpec } from '../providers/jenkins/jenkins-block.dto.js';
import { BooleanLike, NumberAsText } from './text-transforms.js';

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
