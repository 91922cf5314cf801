import type { AxiosInstance } from 'axios';
import { parseDuration } from '@app/contract';
import { UpstreamError } from '@app/plugin-kit';
import type {
  BuildProvider,
  BuildProviderModule,
  BuildRequest,
  Tracked,
} from '../../build/build-provider.js';
import type { BuildRun } from '../../build/build-run.js';
import { GITHUB_KEY_INPUT } from '../../build/correlation-key.js';
import { GITHUB_MAX_INPUTS, GitHubBuildSpec } from './github-block.dto.js';
import { toStringMap } from '../../dto/scalar-map.validator.js';
import { branchName, type DispatchDetails, type WorkflowRun, type WorkflowRunList } from './github-api.js';
import { createGitHubHttp, describeGitHubError } from './github-client.js';
import type { GitHubServer, GithubVariables } from './github-settings.js';
import { runFromWorkflowRun } from './github-state.js';

export interface GitHubRef {
  runId?: number;
  /** Epoch ms of the dispatch (or of the run's creation, when found again). */
  dispatchedAt: number;
  /** The argo_key input went with the dispatch, so the run can be found by its run-name. */
  keySent: boolean;
}

type Request = BuildRequest<GitHubBuildSpec>;

/** How far before the dispatch time a run may have been created (clock skew between us and GitHub). */
const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * GitHub Actions `workflow_dispatch`. The dispatch asks for `return_run_details` (the run id in the reply);
 * servers that reject the flag (GHES ≤ 3.20) or answer 204 anyway are found by the `argo_key` input, which
 * the workflow shows in its run-name (`run-name: ${{ inputs.argo_key }}`). The same lookup runs before every
 * first dispatch, so a restarted sidecar finds the run it started instead of dispatching again.
 */
export class GitHubActionsProvider implements BuildProvider<GitHubBuildSpec, GitHubRef> {
  readonly name = 'github' as const;
  /** Learned from the server: does it accept `return_run_details`? */
  private runDetails: 'unknown' | 'yes' | 'no' = 'unknown';
  /** Workflows that declare no `argo_key` input (GitHub said "Unexpected inputs"). */
  private readonly withoutKeyInput = new Set<string>();

  constructor(
    private readonly http: AxiosInstance,
    private readonly lookupTimeoutMs: number,
  ) {}

  async find(request: Request): Promise<Tracked<GitHubRef> | undefined> {
    if (this.withoutKeyInput.has(this.workflowKey(request))) return undefined;
    const run = await this.runWithKey(request);
    if (!run) return undefined;
    const created = Date.parse(run.created_at ?? '');
    return {
      ref: { runId: run.id, dispatchedAt: Number.isFinite(created) ? created : Date.now(), keySent: true },
      run: this.runOf(request, run),
    };
  }

  async start(request: Request): Promise<Tracked<GitHubRef>> {
    const inputs = toStringMap(request.spec.inputs);
    const keySent =
      !this.withoutKeyInput.has(this.workflowKey(request)) && Object.keys(inputs).length < GITHUB_MAX_INPUTS;
    if (keySent) inputs[GITHUB_KEY_INPUT] = request.correlationKey;
    const askDetails = this.runDetails !== 'no';
    const dispatchedAt = Date.now();
    let res;
    try {
      res = await this.http.post<DispatchDetails | ''>(`${this.workflowPath(request)}/dispatches`, {
        ref: request.spec.ref,
        inputs,
        ...(askDetails && { return_run_details: true }),
      });
    } catch (err) {
      const message = err instanceof UpstreamError ? err.message : '';
      const rejected = err instanceof UpstreamError && (err.status === 400 || err.status === 422);
      if (rejected && askDetails && /return_run_details|not a permitted key/i.test(message)) {
        this.runDetails = 'no';
        request.logger.info(
          { server: 'github' },
          'this GitHub server does not support return_run_details: finding runs by their argo_key run-name',
        );
        return this.start(request);
      }
      if (rejected && keySent && /unexpected inputs/i.test(message) && message.includes(GITHUB_KEY_INPUT)) {
        this.withoutKeyInput.add(this.workflowKey(request));
        request.logger.warn(
          { workflow: this.subject(request) },
          `the workflow declares no ${GITHUB_KEY_INPUT} input: dispatching without it (a restarted sidecar cannot find this run again)`,
        );
        return this.start(request);
      }
      throw describeGitHubError(err, `cannot dispatch ${this.subject(request)} on ${request.spec.ref}`);
    }
    const details = res.status === 200 && res.data && typeof res.data === 'object' ? res.data : undefined;
    if (details && typeof details.workflow_run_id === 'number') {
      this.runDetails = 'yes';
      const run = this.runOf(request, {
        id: details.workflow_run_id,
        status: 'queued',
        conclusion: null,
        html_url: details.html_url,
      });
      return {
        ref: { runId: details.workflow_run_id, dispatchedAt, keySent },
        run: { ...run, startedAt: dispatchedAt },
      };
    }
    if (!keySent && request.wait) {
      throw UpstreamError.permanent(
        `github: dispatched ${this.subject(request)} on ${request.spec.ref}, but the server returned no run id and the workflow has no ${GITHUB_KEY_INPUT} input, so the run cannot be followed: add the input and run-name: \${{ inputs.${GITHUB_KEY_INPUT} }} to the workflow`,
      );
    }
    return { ref: { dispatchedAt, keySent }, run: this.locating(request, dispatchedAt), soon: true };
  }

  async poll(request: Request, ref: GitHubRef): Promise<Tracked<GitHubRef>> {
    if (ref.runId !== undefined) {
      const res = await this.http
        .get<WorkflowRun>(`${this.repoPath(request)}/actions/runs/${ref.runId}`, {
          params: { exclude_pull_requests: 'true' },
        })
        .catch((err: unknown) => Promise.reject(describeGitHubError(err, `cannot read run ${ref.runId}`)));
      return { ref, run: this.runOf(request, res.data) };
    }
    const found = await this.runWithKey(request, ref.dispatchedAt - CLOCK_SKEW_MS);
    if (found) return { ref: { ...ref, runId: found.id }, run: this.runOf(request, found) };
    if (Date.now() - ref.dispatchedAt > this.lookupTimeoutMs) {
      throw UpstreamError.permanent(
        `github: dispatched ${this.subject(request)} on ${request.spec.ref}, but no run showing ${request.correlationKey} in its title appeared within ${Math.round(this.lookupTimeoutMs / 1000)}s: give the workflow run-name: \${{ inputs.${GITHUB_KEY_INPUT} }}`,
      );
    }
    return { ref, run: this.locating(request, ref.dispatchedAt), soon: true };
  }

  async cancel(request: Request, ref: GitHubRef): Promise<BuildRun | undefined> {
    if (ref.runId === undefined) return undefined;
    try {
      await this.http.post(`${this.repoPath(request)}/actions/runs/${ref.runId}/cancel`);
      return undefined;
    } catch (err) {
      if (!(err instanceof UpstreamError) || err.status !== 409)
        throw describeGitHubError(err, `cannot cancel run ${ref.runId}`);
    }
    // 409: "Cannot cancel a workflow run that is completed": report how it really ended.
    return (await this.poll(request, ref)).run;
  }

  /** The newest dispatched run of this workflow and ref whose title carries the correlation key. */
  private async runWithKey(request: Request, createdAfter?: number): Promise<WorkflowRun | undefined> {
    const params: Record<string, string> = {
      event: 'workflow_dispatch',
      branch: branchName(request.spec.ref),
      per_page: '100',
    };
    if (createdAfter !== undefined)
      params.created = `>=${new Date(createdAfter).toISOString().replace(/\.\d{3}Z$/, 'Z')}`;
    const res = await this.http
      .get<WorkflowRunList>(`${this.workflowPath(request)}/runs`, { params })
      .catch((err: unknown) =>
        Promise.reject(describeGitHubError(err, `cannot list runs of ${this.subject(request)}`)),
      );
    return res.data?.workflow_runs?.find((run) => run.display_title?.includes(request.correlationKey));
  }

  private locating(request: Request, dispatchedAt: number): BuildRun {
    return {
      provider: 'github',
      id: '',
      url: '',
      status: 'queued',
      result: '',
      label: this.subject(request),
      startedAt: dispatchedAt,
      waitingReason: 'dispatched; looking for the run',
    };
  }

  private runOf(request: Request, run: WorkflowRun): BuildRun {
    return runFromWorkflowRun(run, this.subject(request));
  }

  private repoPath(request: Request): string {
    const [owner, repo] = request.spec.repo.split('/');
    return `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
  }

  private workflowPath(request: Request): string {
    return `${this.repoPath(request)}/actions/workflows/${encodeURIComponent(String(request.spec.workflow))}`;
  }

  private workflowKey(request: Request): string {
    return `${request.spec.repo}/${request.spec.workflow}`;
  }

  private subject(request: Request): string {
    return `${request.spec.repo} ${request.spec.workflow}`;
  }
}

export const githubModule: BuildProviderModule<GitHubServer, GithubVariables, GitHubBuildSpec> = {
  block: GitHubBuildSpec,
  create: (server, { timeoutMs, variables }) =>
    new GitHubActionsProvider(
      createGitHubHttp(server, timeoutMs),
      parseDuration(variables.GITHUB_RUN_LOOKUP_TIMEOUT),
    ),
};
