import { ValidateBy, type ValidationArguments, type ValidationOptions } from 'class-validator';

/**
 * URL path segments that a URL parser would resolve away (`..` climbs out of the job, `%2e%2e` too).
 * Workflow bodies must not be able to reach other endpoints with the admin's credentials.
 */
export function isDotSegment(segment: string): boolean {
  return /^(\.|%2e){1,2}$/i.test(segment);
}

/** Jenkins `folder/sub/job`: non-empty segments, none of them `.`/`..`. */
export function jenkinsJobProblem(job: unknown): string | undefined {
  if (typeof job !== 'string' || job.trim() === '')
    return 'must be a job name or folder path such as folder/sub/job';
  const segments = job.replace(/^\/+|\/+$/g, '').split('/');
  if (segments.some((s) => s === '')) return 'must not contain empty path segments (//)';
  if (segments.some(isDotSegment)) return 'must not contain . or .. segments';
  return undefined;
}

/** GitHub `owner/repo`. */
export function githubRepoProblem(repo: unknown): string | undefined {
  if (typeof repo !== 'string' || !/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(repo))
    return 'must be owner/repo';
  if (repo.split('/').some(isDotSegment)) return 'must not contain . or .. segments';
  return undefined;
}

/** A workflow file name (`ci.yml`) or a numeric workflow id. */
export function githubWorkflowProblem(workflow: unknown): string | undefined {
  if (typeof workflow === 'number')
    return Number.isSafeInteger(workflow) && workflow > 0 ? undefined : 'must be a positive workflow id';
  if (typeof workflow !== 'string') return 'must be a workflow file name (ci.yml) or a numeric workflow id';
  if (/^\d+$/.test(workflow)) return undefined;
  if (/^[A-Za-z0-9_.-]+\.ya?ml$/.test(workflow) && !isDotSegment(workflow)) return undefined;
  if (/^\.github\/workflows\/[^/]+$/.test(workflow))
    return `must be the file name only: "${workflow.split('/').pop()}"`;
  return 'must be a workflow file name (ci.yml) or a numeric workflow id';
}

/** A numeric GitLab project id or its full path `group/sub/project`. */
export function gitlabProjectProblem(project: unknown): string | undefined {
  if (typeof project === 'number')
    return Number.isSafeInteger(project) && project > 0 ? undefined : 'must be a positive project id';
  if (typeof project !== 'string') return 'must be a project id or a path such as group/project';
  if (/^\d+$/.test(project)) return undefined;
  if (!/^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)+$/.test(project))
    return 'must be a project id or a path such as group/project';
  return undefined;
}

/** A git ref (branch, tag or refs/...): no spaces, control characters or `..`. */
export function gitRefProblem(ref: unknown): string | undefined {
  if (typeof ref !== 'string' || ref.trim() === '') return 'must be a branch or tag name';
  // eslint-disable-next-line no-control-regex
  if (/[\s\x00-\x1f\x7f~^:?*[\\]|\.\.|@\{/.test(ref) || ref.length > 255) return 'is not a valid git ref';
  return undefined;
}

/** A class-validator decorator from a `problem(value)` function (undefined = valid). */
export function Satisfies(
  problem: (value: unknown) => string | undefined,
  options?: ValidationOptions,
): PropertyDecorator {
  return ValidateBy(
    {
      name: problem.name || 'satisfies',
      validator: {
        validate: (value: unknown) => problem(value) === undefined,
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property} ${problem(args?.value) ?? 'is invalid'}`,
      },
    },
    options,
  );
}
