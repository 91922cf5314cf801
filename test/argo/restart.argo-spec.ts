// A plugin killed in the middle of a step: while the Jenkins build of the jenkins-build example runs, the build
// trigger's sidecar gets SIGKILL. The pod runner restarts it (the agent pod's restartPolicy, OnFailure), the
// agent's next call reaches the new process, which finds the build again by its ARGO_KEY parameter
// (docs/build-trigger.md, "Exactly one build"), and the node ends once: Succeeded, one attempt, one build.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { JenkinsStandIn } from '../../apps/build-trigger/stand-ins/jenkins/jenkins.stand-in.js';
import type { StackState } from '../../tools/argo-stack/src/stack.js';
import { create, examples, prepareNamespace, stack, until, waitForWorkflow } from './support/cluster.js';
import { watchAgentPod } from './support/agent-pods.js';
import { installPlugin, pluginManifest } from './support/plugins.js';
import { reportWorkflow } from './support/report.js';
import { workflowSeconds } from './support/runs.js';
import { standInsOnStack } from './support/upstreams.js';

const NAMESPACE = 'ep-restart';
const APP = 'build-trigger';
const JOB = 'platform/app-build';
const CREDENTIALS = { user: 'argo-bot', apiToken: 'restart-test-token-0123456789abcdef' };

describe('a plugin killed in the middle of a step', () => {
  let state: StackState;
  const jenkins = new JenkinsStandIn({ ...CREDENTIALS, rootUrl: 'https://jenkins.example.com/' });

  beforeAll(async () => {
    state = stack();
    standInsOnStack(state);
    // A build long enough to be killed in: it runs 45 s, polled every 20 s by the example.
    jenkins.addJob(JOB, { parameters: ['TARGET', 'ARGO_KEY'], queue: { polls: 1 }, build: { ms: 45_000 } });
    await jenkins.start();
    await prepareNamespace(state, NAMESPACE);
    await installPlugin(state, NAMESPACE, APP, {
      JENKINS_URL: jenkins.url,
      JENKINS_USER: CREDENTIALS.user,
      JENKINS_API_TOKEN: CREDENTIALS.apiToken,
    });
  });
  afterAll(() => jenkins.close());

  it('is restarted in its agent pod, and the node ends once with the one build it started', async () => {
    const sidecar = pluginManifest(APP).spec.sidecar.container.name;
    const example = examples(APP).find((e) => e.file.endsWith('/jenkins-build.yaml'))!;
    const name = await create(state, NAMESPACE, example.doc);
    const pod = watchAgentPod(state, NAMESPACE, name);

    // The build runs: kill the sidecar's process (the node says its pid; /proc says it is the plugin).
    await until('a running build', 120, () =>
      jenkins.builds(JOB).some((b) => b.building) ? true : undefined,
    );
    const pid = await until('the sidecar runs', 60, () => pod.container(sidecar).pid);
    expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toContain('/app/main.js');
    process.kill(pid, 'SIGKILL');

    const outcome = await waitForWorkflow(state, NAMESPACE, name, 5 * 60_000);
    pod.stop();
    reportWorkflow({
      what: `${example.file} (sidecar killed)`,
      pass: 'restart',
      phase: outcome.phase,
      expected: 'Succeeded',
      seconds: workflowSeconds(outcome),
      message: outcome.message,
    });
    const record = pod.container(sidecar);
    expect(record.exitCodes).toContain(137);
    expect(record.starts).toBe(2);
    const attempts = Object.values(outcome.nodes).filter((n) => n.type === 'Plugin');
    expect(outcome.phase).toBe('Succeeded');
    expect(attempts.map((n) => n.phase)).toEqual(['Succeeded']);
    expect(jenkins.queueItems(JOB)).toBe(1);
    expect(jenkins.builds(JOB).map((b) => b.result)).toEqual(['SUCCESS']);
  });
});
