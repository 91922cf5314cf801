import { patchNodeResult } from './taskset-patch.js';

describe('patchNodeResult: a result merged into the task set status as Go marshals it', () => {
  it('keeps what a later result leaves out or Go omits, replaces lists whole', () => {
    const first = patchNodeResult(undefined, {
      phase: 'Running',
      message: 'started',
      outputs: { parameters: [{ name: 'a', value: '1' }], artifacts: [{ name: 'x' }], result: 'r' },
    });
    const second = patchNodeResult(first, {
      phase: 'Succeeded',
      message: '',
      outputs: { parameters: [{ name: 'b', value: '2' }], artifacts: [], exitCode: '0' },
    });
    expect(second).toEqual({
      phase: 'Succeeded',
      message: 'started',
      outputs: {
        parameters: [{ name: 'b', value: '2' }],
        artifacts: [{ name: 'x' }],
        result: 'r',
        exitCode: '0',
      },
    });
  });

  it('an empty result string is a value (a pointer), not left out', () => {
    const merged = patchNodeResult(
      { phase: 'Running', outputs: { result: 'r' } },
      {
        phase: 'Succeeded',
        outputs: { result: '' },
      },
    );
    expect(merged.outputs).toEqual({ result: '' });
  });
});
