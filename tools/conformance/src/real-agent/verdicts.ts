// The checks the kit judges under the real agent, from what the controller shows of each workflow: the same
// rule ids, severities and reasons as the local agent's rules where the rule carries over, and one of its own
// (example-succeeds). The rules on the plugin's HTTP behaviour need the local agent (the default).
import { plural } from '../excerpt.js';
import { fail, pass, skip, type Evidence, type Rule, type RuleVerdict } from '../rule.js';
import { badConfigFailed, badConfigStatus } from '../rules/bad-config.js';
import { foreignTemplate } from '../rules/foreign-template.js';
import { NOT_EXECUTED, type CheckWorkflow, type NodeEnd, type WorkflowEnd } from './workflows.js';

export interface CheckRun {
  workflow: CheckWorkflow;
  end: WorkflowEnd;
}

export type RealRule = Pick<Rule, 'id' | 'name' | 'severity' | 'why'> & {
  judge(runs: CheckRun[]): RuleVerdict;
};

/** A rule of the local agent's catalogue, judged here from workflows. */
const carried = ({ id, name, severity, why }: Rule) => ({ id, name, severity, why });

const describeNode = (node: NodeEnd | undefined): string =>
  node ? `${node.phase}${node.message ? `: ${node.message}` : ''}` : 'no plugin node';

/** The workflow's end and one plugin node of it (`main`: the only one). */
function evidence(run: CheckRun, step = 'main'): Evidence {
  const end = run.end.timedOut ? `still ${run.end.phase} after ${run.end.seconds} s` : run.end.phase;
  return {
    what: `${run.workflow.label} (workflow ${run.end.name}${step === 'main' ? '' : `, step ${step}`})`,
    note: `workflow ${end} in ${run.end.seconds} s; node ${describeNode(run.end.nodes[step])}`,
  };
}

/** A node message the agent wrote itself: the plugin's status line (`400 Bad Request: …`) or a transport error. */
const AGENT_ERROR = /^(\d{3} [^:]*: |Post "|no plugin executed the template$)/;

export const exampleSucceeds: RealRule = {
  id: 'example-succeeds',
  name: 'the example body succeeds under the real agent',
  severity: 'breaks-workflow',
  why: 'a workflow with the example body (--config) as its only step must end Succeeded: under the real controller and agent a Failed node, an error the agent met calling the plugin, or a node that is never completed fails or stalls the workflow',
  judge(runs) {
    const run = runs.find((r) => r.workflow.check === 'example');
    if (!run) return skip('needs --config: an example body that succeeds');
    const node = run.end.nodes.main;
    if (run.end.phase === 'Succeeded' && node?.phase === 'Succeeded')
      return pass(`Succeeded in ${run.end.seconds} s`, [evidence(run)]);
    const how = run.end.timedOut
      ? `the node was still ${node?.phase ?? 'not started'} after ${run.end.seconds} s`
      : `the workflow ${run.end.phase}: ${describeNode(node)}`;
    return fail(how, [evidence(run)]);
  },
};

export const realForeignTemplate: RealRule = {
  ...carried(foreignTemplate),
  judge(runs) {
    const run = runs.find((r) => r.workflow.check === 'foreign')!;
    const foreign = run.end.nodes.foreign;
    const own = run.end.nodes.own;
    const shown = [evidence(run, 'foreign'), evidence(run, 'own')];
    if (foreign?.phase !== 'Failed' || foreign.message !== NOT_EXECUTED)
      return fail(
        `the other plugin's template ended ${describeNode(foreign)}, not "${NOT_EXECUTED}" (every plugin declined it)`,
        shown,
      );
    if (!own || own.message === NOT_EXECUTED)
      return fail(
        `its own template after it ended ${describeNode(own)}: a 404 disabled the plugin for the rest of the workflow`,
        shown,
      );
    return pass(`declined: the agent answered "${NOT_EXECUTED}", and its own template still ran`, shown);
  },
};

const badConfigRuns = (runs: CheckRun[]): CheckRun[] => runs.filter((r) => r.workflow.check === 'bad-config');

export const realBadConfigStatus: RealRule = {
  ...carried(badConfigStatus),
  judge(runs) {
    const bad = badConfigRuns(runs);
    const shown = bad.map((r) => evidence(r));
    const wrong = bad.filter((r) => {
      const message = r.end.nodes.main?.message ?? '';
      return AGENT_ERROR.test(message) && message !== NOT_EXECUTED;
    });
    if (wrong.length > 0)
      return fail(
        `${plural(wrong.length, 'bad body', 'bad bodies')} failed by the agent instead of the plugin: ${wrong[0].end.nodes.main?.message}`,
        shown,
      );
    return pass(`no agent error for ${plural(bad.length, 'bad body', 'bad bodies')}`, shown);
  },
};

export const realBadConfigFailed: RealRule = {
  ...carried(badConfigFailed),
  judge(runs) {
    const bad = badConfigRuns(runs);
    const shown = bad.map((r) => evidence(r));
    const refused = (r: CheckRun): boolean => {
      const node = r.end.nodes.main;
      return ['Failed', 'Error'].includes(node?.phase ?? '') && Boolean(node?.message?.trim());
    };
    const accepted = bad.filter((r) => !refused(r) || r.end.nodes.main?.message === NOT_EXECUTED);
    if (accepted.length > 0)
      return fail(
        `not refused: ${accepted.map((r) => `${r.workflow.label} → ${describeNode(r.end.nodes.main)}`).join('; ')}`,
        shown,
      );
    return pass(`Failed with a message for ${plural(bad.length, 'bad body', 'bad bodies')}`, shown);
  },
};

/** Every rule under the real agent, in report order. */
export const REAL_RULES: readonly RealRule[] = [
  realForeignTemplate,
  realBadConfigStatus,
  realBadConfigFailed,
  exampleSucceeds,
];
