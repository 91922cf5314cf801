import { PluginConfigError, UpstreamError } from '@app/plugin-kit';
import type {
  BuildProvider,
  BuildProviderModule,
  BuildRequest,
  Tracked,
} from '../../build/build-provider.js';
import type { BuildRun } from '../../build/build-run.js';
import { JENKINS_KEY_PARAMETER } from '../../build/correlation-key.js';
import { JenkinsBuildSpec } from './jenkins-block.dto.js';
import { toStringMap } from '../../dto/scalar-map.validator.js';
import {
  BUILD_TREE,
  BUILDS_BY_QUEUE_TREE,
  declaredParameters,
  JOB_TREE,
  parameterOf,
  QUEUE_ITEM_TREE,
  QUEUE_TREE,
  type JenkinsBuild,
  type JenkinsQueue,
  type JenkinsJob,
  type JenkinsQueueItem,
} from './jenkins-api.js';
import { JenkinsClient } from './jenkins-client.js';
import type { JenkinsServer } from './jenkins-settings.js';
import { describeJenkinsError } from './jenkins-errors.js';
import { jobLabel, jobPath, queueIdFromLocation } from './jenkins-paths.js';
import { runFromBuild, runFromQueueItem } from './jenkins-state.js';

/** What the plugin keeps between calls: the queue item until it becomes a build, then the build number. */
export interface JenkinsRef {
  queueId?: number;
  number?: number;
  /** Web page of the job (shown while queued). */
  jobUrl?: string;
  /** The queue item expired (kept 5 minutes after leaving the queue): find the build by queueId. */
  queueGone?: boolean;
}

type Request = BuildRequest<JenkinsBuildSpec>;

/**
 * Jenkins remote access API. Start: `build` or `buildWithParameters` → 201/303 + Location of the queue
 * item → `executable.number`. The correlation parameter ARGO_KEY is sent only when the job declares it; it
 * stops Jenkins from merging two executions' requests and lets a restarted sidecar find the build.
 */
interface JobSummary {
  url?: string;
  declared: Set<string>;
}

function summarize(job: JenkinsJob): JobSummary {
  return { url: job.url, declared: declaredParameters(job) };
}

export class JenkinsProvider implements BuildProvider<JenkinsBuildSpec, JenkinsRef> {
  readonly name = 'jenkins' as const;
  /**
   * What start() needs of the job find() read in the same call: its URL and declared parameters. Only this
   * summary is kept (not the job JSON with its recent builds), and only until start() has used it: the
   * request stays reachable while the run is tracked, so anything hung on it lives as long as the build.
   */
  private readonly jobs = new WeakMap<Request, JobSummary>();

  constructor(private readonly client: JenkinsClient) {}

  /**
   * After a restart: the build by its ARGO_KEY among the job's recent builds, else the queue item while it
   * waits. The job read says whether anything is queued; when the queue has no item of ours, ours may have
   * left the queue between the two reads, so the builds are read once more. Without that second look an item
   * that became a build in between was triggered again (Jenkins merges only with an item still in the queue).
   */
  async find(request: Request): Promise<Tracked<JenkinsRef> | undefined> {
    const job = await this.job(request);
    if (!declaredParameters(job).has(JENKINS_KEY_PARAMETER)) return undefined;
    const built = this.builtWithKey(request, job);
    if (built || job.inQueue === false) return built;
    const item = (await this.queue()).find(
      (i) => parameterOf(i, JENKINS_KEY_PARAMETER) === request.correlationKey,
    );
    if (item) {
      const jobUrl = job.url ?? '';
      return { ref: { queueId: item.id, jobUrl }, run: runFromQueueItem(item, this.label(request), jobUrl) };
    }
    return this.builtWithKey(request, await this.job(request));
  }

  private builtWithKey(request: Request, job: JenkinsJob): Tracked<JenkinsRef> | undefined {
    const build = job.builds?.find((b) => parameterOf(b, JENKINS_KEY_PARAMETER) === request.correlationKey);
    if (!build) return undefined;
    return {
      ref: { number: build.number, queueId: build.queueId, jobUrl: job.url },
      run: this.runOf(request, build),
    };
  }

  async start(request: Request): Promise<Tracked<JenkinsRef>> {
    const job = this.jobs.get(request) ?? summarize(await this.job(request));
    this.jobs.delete(request);
    const { declared } = job;
    const parameters = toStringMap(request.spec.parameters);
    const undeclared = Object.keys(parameters).filter((name) => !declared.has(name));
    if (undeclared.length > 0) {
      throw new PluginConfigError(
        `jenkins.parameters: job ${this.label(request)} does not declare ${undeclared.join(', ')} (Jenkins would drop ${undeclared.length > 1 ? 'them' : 'it'})`,
      );
    }
    if (declared.has(JENKINS_KEY_PARAMETER)) parameters[JENKINS_KEY_PARAMETER] = request.correlationKey;
    const parameterized = declared.size > 0;
    const path = `${this.path(request)}/${parameterized ? 'buildWithParameters' : 'build'}`;
    const res = await this.client
      .post(path, { form: parameterized ? new URLSearchParams(parameters) : undefined, accept: [302, 303] })
      .catch((err: unknown) => Promise.reject(describeJenkinsError(err, `job ${this.label(request)}`)));
    const queueId = res.status === 302 ? undefined : queueIdFromLocation(res.headers.location);
    if (queueId === undefined) {
      throw UpstreamError.permanent(
        `jenkins: job ${this.label(request)} did not queue a build (HTTP ${res.status} without a queue item; a queue decision handler may have vetoed it)`,
      );
    }
    const jobUrl = job.url ?? '';
    return {
      ref: { queueId, jobUrl },
      run: runFromQueueItem({ id: queueId, why: 'in the queue' }, this.label(request), jobUrl),
    };
  }

  async poll(request: Request, ref: JenkinsRef): Promise<Tracked<JenkinsRef>> {
    if (ref.number !== undefined) {
      const build = await this.client
        .getJson<JenkinsBuild>(`${this.path(request)}/${ref.number}/api/json`, { tree: BUILD_TREE })
        .catch((err: unknown) =>
          Promise.reject(describeJenkinsError(err, `build ${this.label(request)} #${ref.number}`)),
        );
      return { ref, run: this.runOf(request, build) };
    }
    if (ref.queueGone) {
      const build = await this.buildByQueueId(request, ref.queueId!);
      if (!build) {
        throw UpstreamError.permanent(
          `jenkins: queue item ${ref.queueId} of ${this.label(request)} expired and no recent build has queueId ${ref.queueId}`,
        );
      }
      return { ref: { ...ref, number: build.number, queueGone: false }, run: this.runOf(request, build) };
    }
    const item = await this.queueItem(ref.queueId!);
    if (!item) {
      const run = runFromQueueItem(
        { id: ref.queueId!, why: 'queue item expired; looking the build up' },
        this.label(request),
        ref.jobUrl ?? '',
      );
      return { ref: { ...ref, queueGone: true }, run, soon: true };
    }
    const run = runFromQueueItem(item, this.label(request), ref.jobUrl ?? '');
    return { ref: item.executable ? { ...ref, number: item.executable.number } : ref, run };
  }

  async cancel(request: Request, ref: JenkinsRef): Promise<BuildRun | undefined> {
    let number = ref.number;
    if (number === undefined && ref.queueId !== undefined) {
      const cancelled = await this.client
        .post('/queue/cancelItem', { params: { id: ref.queueId }, accept: [302] })
        .then(() => true)
        .catch((err: unknown) => {
          if (err instanceof UpstreamError && (err.status === 404 || err.status === 422)) return false; // it left the queue meanwhile
          throw describeJenkinsError(err, `queue item ${ref.queueId}`);
        });
      if (cancelled) {
        return runFromQueueItem(
          { _class: '$LeftItem', id: ref.queueId, cancelled: true },
          this.label(request),
          ref.jobUrl ?? '',
        );
      }
      const item = await this.queueItem(ref.queueId);
      number = item?.executable?.number ?? (await this.buildByQueueId(request, ref.queueId))?.number;
    }
    if (number === undefined) return undefined;
    await this.client
      .post(`${this.path(request)}/${number}/stop`, { accept: [302, 303] })
      .catch((err: unknown) =>
        Promise.reject(describeJenkinsError(err, `build ${this.label(request)} #${number}`)),
      );
    return undefined;
  }

  private async job(request: Request): Promise<JenkinsJob> {
    const job = await this.client
      .getJson<JenkinsJob>(`${this.path(request)}/api/json`, { tree: JOB_TREE })
      .catch((err: unknown) => Promise.reject(describeJenkinsError(err, `job ${this.label(request)}`)));
    this.jobs.set(request, summarize(job));
    return job;
  }

  /** Every item in Jenkins' queue (waiting, blocked, buildable or pending; not the ones that left). */
  private async queue(): Promise<JenkinsQueueItem[]> {
    const queue = await this.client
      .getJson<JenkinsQueue>('/queue/api/json', { tree: QUEUE_TREE })
      .catch((err: unknown) => Promise.reject(describeJenkinsError(err, 'the build queue')));
    return queue.items ?? [];
  }

  private async queueItem(id: number): Promise<JenkinsQueueItem | undefined> {
    try {
      return await this.client.getJson<JenkinsQueueItem>(`/queue/item/${id}/api/json`, {
        tree: QUEUE_ITEM_TREE,
      });
    } catch (err) {
      if (err instanceof UpstreamError && err.status === 404) return undefined;
      throw describeJenkinsError(err, `queue item ${id}`);
    }
  }

  private async buildByQueueId(request: Request, queueId: number): Promise<JenkinsBuild | undefined> {
    const job = await this.client
      .getJson<JenkinsJob>(`${this.path(request)}/api/json`, { tree: BUILDS_BY_QUEUE_TREE })
      .catch((err: unknown) => Promise.reject(describeJenkinsError(err, `job ${this.label(request)}`)));
    return job.builds?.find((b) => b.queueId === queueId);
  }

  private runOf(request: Request, build: JenkinsBuild): BuildRun {
    return runFromBuild(build, this.label(request), request.unstableIsSuccess);
  }

  private path(request: Request): string {
    return jobPath(request.spec.job, request.spec.branch);
  }

  private label(request: Request): string {
    return jobLabel(request.spec.job, request.spec.branch);
  }
}

export const jenkinsModule: BuildProviderModule<JenkinsServer, object, JenkinsBuildSpec> = {
  block: JenkinsBuildSpec,
  create: (server, { timeoutMs }) => new JenkinsProvider(new JenkinsClient(server, timeoutMs)),
};
