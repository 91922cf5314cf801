/** The parts of Jenkins' remote API JSON the plugin reads (and the `tree=` filters that request them). */

export interface JenkinsParameterValue {
  name: string;
  value?: unknown;
}

export interface JenkinsBuild {
  _class?: string;
  number: number;
  url: string;
  building: boolean;
  /** null while building: SUCCESS, UNSTABLE, FAILURE, NOT_BUILT, ABORTED. */
  result: string | null;
  /** Milliseconds; 0 while building. */
  duration?: number;
  /** Start time, epoch ms. */
  timestamp?: number;
  queueId?: number;
  actions?: Array<{ _class?: string; parameters?: JenkinsParameterValue[] } | null>;
}

export interface JenkinsJob {
  _class?: string;
  url?: string;
  buildable?: boolean;
  /** Whether the job has an item in the queue (any execution's). */
  inQueue?: boolean;
  property?: Array<{ _class?: string; parameterDefinitions?: Array<{ name: string }> }>;
  builds?: JenkinsBuild[];
}

export interface JenkinsQueueItem {
  /** hudson.model.Queue$WaitingItem | $BlockedItem | $BuildableItem | $LeftItem */
  _class?: string;
  id: number;
  why?: string | null;
  stuck?: boolean;
  /** LeftItem only. */
  cancelled?: boolean;
  /** LeftItem only; null until the build object exists. */
  executable?: { number: number; url: string } | null;
  /** The item's parameters (ParametersAction), as in a build. */
  actions?: JenkinsBuild['actions'];
}

/** GET /queue/api/json: the items still in the queue. */
export interface JenkinsQueue {
  items?: JenkinsQueueItem[];
}

export interface JenkinsCrumb {
  crumb: string;
  crumbRequestField: string;
}

export const JOB_TREE =
  'url,buildable,inQueue,property[parameterDefinitions[name]],builds[number,url,queueId,building,result,timestamp,duration,actions[parameters[name,value]]]{0,50}';
export const BUILD_TREE = 'number,url,building,result,duration,timestamp,queueId';
export const BUILDS_BY_QUEUE_TREE = 'builds[number,url,queueId,building,result,timestamp,duration]{0,100}';
export const QUEUE_ITEM_TREE = 'id,why,stuck,cancelled,executable[number,url]';
export const QUEUE_TREE = 'items[id,why,stuck,actions[parameters[name,value]]]';

export function declaredParameters(job: JenkinsJob): Set<string> {
  const names = new Set<string>();
  for (const property of job.property ?? [])
    for (const def of property?.parameterDefinitions ?? []) names.add(def.name);
  return names;
}

export function parameterOf(build: Pick<JenkinsBuild, 'actions'>, name: string): string | undefined {
  for (const action of build.actions ?? []) {
    const p = action?.parameters?.find((x) => x.name === name);
    if (p) return p.value === undefined || p.value === null ? undefined : String(p.value);
  }
  return undefined;
}
