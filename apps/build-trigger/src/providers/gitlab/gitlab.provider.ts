import type { AxiosInstance } from 'axios';
import { PluginConfigError, UpstreamError } from '@app/plugin-kit';
import type {
  BuildProvider,
  BuildProviderModule,
  BuildRequest,
  Tracked,
} from '../../build/build-provider.js';
import type { BuildRun } from '../../build/build-run.js';
import { GITLAB_KEY_VARIABLE } from '../../build/correlation-key.js';
import { GitLabBuildSpec } from './gitlab-block.dto.js';
import { toStringMap } from '../../dto/scalar-map.validator.js';
import type { GitLabServer } from './gitlab-settings.js';
import { projectId, type GitLabPipeline, type GitLabVariable } from './gitlab-api.js';
import { createGitLabHttp, describeGitLabError } from './gitlab-client.js';
import { runFromPipeline } from './gitlab-state.js';

export interface GitLabRef {
  pipelineId: number;
}

type Request = BuildRequest<GitLabBuildSpec>;

/** Recent pipelines whose variables are read when the name lookup finds nothing. */
const VARIABLE_SCAN = 5;

/**
 * GitLab CI pipelines. Start with the API token (`POST /projects/:id/pipeline`) or, when the admin gave a
 * pipeline trigger token, with the trigger endpoint. Every pipeline carries the variable ARGO_KEY; a
 * restarted sidecar finds it by pipeline name (`workflow: name: $ARGO_KEY`) or by reading the variables
 * of the few most recent pipelines of that ref.
 */
export class GitLabProvider implements BuildProvider<GitLabBuildSpec, GitLabRef> {
  readonly name = 'gitlab' as const;
  /** PRIVATE-TOKEN client; absent with only a trigger token. */
  private readonly api?: AxiosInstance;
  /** No credentials in headers: the trigger token travels in the form body. */
  private readonly plain: AxiosInstance;

  constructor(
    private readonly server: GitLabServer,
    timeoutMs: number,
  ) {
    if (server.token) this.api = createGitLabHttp(server, server.token, timeoutMs);
    this.plain = createGitLabHttp(server, undefined, timeoutMs);
  }

  async find(request: Request): Promise<Tracked<GitLabRef> | undefined> {
    const api = this.api;
    if (!api) return undefined;
    const list = (params: Record<string, string>) =>
      api
        .get<GitLabPipeline[]>(`${this.projectPath(request)}/pipelines`, { params })
        .then((r) => (Array.isArray(r.data) ? r.data : []))
        .catch((err: unknown) =>
          Promise.reject(describeGitLabError(err, `cannot list pipelines of ${this.project(request)}`)),
        );

    // GitLab before 16.9 ignores `name` and lists every pipeline: check the name of what comes back.
    const byName = await list({ name: request.correlationKey, per_page: '1' });
    const named = byName.find((p) => p.name === request.correlationKey);
    if (named) return this.tracked(request, named);

    const source = this.server.triggerToken ? 'trigger' : 'api';
    const recent = await list({
      ref: request.spec.ref,
      source,
      per_page: String(VARIABLE_SCAN),
      order_by: 'id',
      sort: 'desc',
    });
    for (const pipeline of recent) {
      if (pipeline.name?.startsWith('argo-')) continue; // named by its key: the name lookup would have found ours
      const variables = await this.variables(request, pipeline.id);
      if (!variables) return undefined;
      if (variables.some((v) => v.key === GITLAB_KEY_VARIABLE && v.value === request.correlationKey))
        return this.tracked(request, pipeline);
    }
    return undefined;
  }

  /** A pipeline's variables; undefined when the token may not read them (the lookup by name still works). */
  private async variables(request: Request, pipelineId: number): Promise<GitLabVariable[] | undefined> {
    try {
      const res = await this.api!.get<GitLabVariable[]>(
        `${this.projectPath(request)}/pipelines/${pipelineId}/variables`,
      );
      return Array.isArray(res.data) ? res.data : [];
    } catch (err) {
      if (err instanceof UpstreamError && err.status === 403) {
        request.logger.warn(
          { project: this.project(request) },
          'the GitLab token may not read pipeline variables: a restarted sidecar can find pipelines only by name',
        );
        return undefined;
      }
      throw describeGitLabError(err, `cannot read variables of pipeline ${pipelineId}`);
    }
  }

  async start(request: Request): Promise<Tracked<GitLabRef>> {
    if (request.wait && !this.api) {
      throw new PluginConfigError(
        `gitlab: following a pipeline needs an access token (GITLAB_TOKEN, scope read_api or api); only a trigger token is configured for server "${this.server.name}": set wait: false`,
      );
    }
    const variables = {
      ...toStringMap(request.spec.variables),
      [GITLAB_KEY_VARIABLE]: request.correlationKey,
    };
    const base = this.projectPath(request);
    const action = `cannot create a pipeline for ${this.project(request)} on ${request.spec.ref}`;
    let res;
    if (this.server.triggerToken) {
      const form = new URLSearchParams({ token: this.server.triggerToken, ref: request.spec.ref });
      for (const [key, value] of Object.entries(variables)) form.append(`variables[${key}]`, value);
      res = await this.plain
        .post<GitLabPipeline>(`${base}/trigger/pipeline`, form)
        .catch((err: unknown) => Promise.reject(describeGitLabError(err, action)));
    } else {
      const body = {
        ref: request.spec.ref,
        variables: Object.entries(variables).map(([key, value]) => ({
          key,
          value,
          variable_type: 'env_var',
        })),
      };
      res = await this.api!.post<GitLabPipeline>(`${base}/pipeline`, body).catch((err: unknown) =>
        Promise.reject(describeGitLabError(err, action)),
      );
    }
    return this.tracked(request, res.data);
  }

  async poll(request: Request, ref: GitLabRef): Promise<Tracked<GitLabRef>> {
    const res = await this.client()
      .get<GitLabPipeline>(`${this.projectPath(request)}/pipelines/${ref.pipelineId}`)
      .catch((err: unknown) =>
        Promise.reject(
          describeGitLabError(err, `cannot read pipeline ${ref.pipelineId} of ${this.project(request)}`),
        ),
      );
    return this.tracked(request, res.data);
  }

  /** GitLab answers 200 with the pipeline whatever its state, so the reply says whether it had already ended. */
  async cancel(request: Request, ref: GitLabRef): Promise<BuildRun | undefined> {
    const res = await this.client()
      .post<GitLabPipeline>(`${this.projectPath(request)}/pipelines/${ref.pipelineId}/cancel`)
      .catch((err: unknown) =>
        Promise.reject(describeGitLabError(err, `cannot cancel pipeline ${ref.pipelineId}`)),
      );
    return res.data && typeof res.data === 'object'
      ? runFromPipeline(res.data, this.project(request))
      : undefined;
  }

  private tracked(request: Request, pipeline: GitLabPipeline): Tracked<GitLabRef> {
    return { ref: { pipelineId: pipeline.id }, run: runFromPipeline(pipeline, this.project(request)) };
  }

  private client(): AxiosInstance {
    return this.api ?? this.plain;
  }

  private projectPath(request: Request): string {
    return `/projects/${projectId(request.spec.project)}`;
  }

  private project(request: Request): string {
    return String(request.spec.project);
  }
}

export const gitlabModule: BuildProviderModule<GitLabServer, object, GitLabBuildSpec> = {
  block: GitLabBuildSpec,
  create: (server, { timeoutMs }) => new GitLabProvider(server, timeoutMs),
};
