import { isFinalPhase, isWorkflowDone, NODE_PHASES } from './node-phase.js';

describe('isFinalPhase', () => {
  it('is true for the phases that complete a node, as Argo spells them', () => {
    expect(NODE_PHASES.filter(isFinalPhase)).toEqual(['Succeeded', 'Skipped', 'Failed', 'Error', 'Omitted']);
  });

  it('is false for anything else a TaskSet or a reply may carry', () => {
    for (const phase of [undefined, '', 'succeeded', 'Done', 'Pending', 'Running'])
      expect({ phase, final: isFinalPhase(phase) }).toEqual({ phase, final: false });
  });
});

describe('isWorkflowDone', () => {
  it("is true for a Workflow's last phases only", () => {
    const phases = [
      undefined,
      '',
      'Pending',
      'Running',
      'Succeeded',
      'Failed',
      'Error',
      'succeeded',
      'Skipped',
    ];
    expect(phases.filter(isWorkflowDone)).toEqual(['Succeeded', 'Failed', 'Error']);
  });
});
