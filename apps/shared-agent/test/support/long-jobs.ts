// Every backend of the data-job runner and the build trigger, each stand-in seeded with one job that runs until
// it is cancelled, and the cancel requests each one received: what the stop tests count.
import { longAwsJobs } from './long-aws-jobs.js';
import { longBuilds } from './long-builds.js';
import { longCloudJobs } from './long-cloud-jobs.js';
import { longDataJobs } from './long-data-jobs.js';
import type { LongJob } from './long-job.js';

export const BACKENDS = [
  'databricks',
  'airflow',
  'dbtCloud',
  'livy',
  'stepFunctions',
  'emrServerless',
  'batch',
  'glue',
  'sagemakerPipelines',
  'snowflake',
  'dataproc',
  'cloudRun',
  'vertexPipelines',
  'dataFactory',
  'jenkins',
  'github',
  'gitlab',
] as const;
export type Backend = (typeof BACKENDS)[number];

export interface LongJobs {
  /** The plugins' settings (the collection's variables). */
  env: Record<string, string>;
  /** The template's `plugin` of each backend's step: its long job, polled every second. */
  plugin(backend: Backend, key: string): Record<string, unknown>;
  /** Cancels each stand-in received (Jenkins: a build's stop, term or kill, or a queue item cancelled). */
  cancels(): Record<Backend, number>;
  close(): Promise<void>;
}

/** Starts the stand-ins, one per backend, where `setStandInHost` says (loopback by default). */
export async function startLongJobs(): Promise<LongJobs> {
  const jobs: Record<Backend, LongJob> = {
    ...longDataJobs(),
    ...longAwsJobs(),
    ...longCloudJobs(),
    ...longBuilds(),
  };
  const all = BACKENDS.map((b) => jobs[b]);
  await Promise.all(all.map((j) => j.standIn.start()));
  return {
    env: Object.assign({}, ...all.map((j) => j.env())) as Record<string, string>,
    plugin: (backend, key) => jobs[backend].plugin(key),
    cancels: () => Object.fromEntries(BACKENDS.map((b) => [b, jobs[b].cancels()])) as Record<Backend, number>,
    close: async () => {
      await Promise.all(all.map((j) => j.standIn.close()));
    },
  };
}
