import type { ExecuteTemplateArgs } from '@app/contract';
import { executionKey, inputParameters } from './execution-key.js';

const args = (parameters: Array<{ name: string; value: string }>): ExecuteTemplateArgs =>
  ({
    workflow: { metadata: { name: 'wf', namespace: 'argo', uid: 'u-1' } },
    template: { name: 't', inputs: { parameters }, plugin: {} },
  }) as unknown as ExecuteTemplateArgs;

describe('input parameters and the execution key', () => {
  it.each(['__proto__', 'constructor', 'toString'])(
    'a parameter named %s is an own entry, and its value is part of the key',
    (name) => {
      const a = args([{ name, value: 'one' }]);
      const b = args([{ name, value: 'two' }]);
      expect(Object.keys(inputParameters(a))).toEqual([name]);
      expect(inputParameters(a)[name]).toBe('one');
      expect(executionKey(a, {}, inputParameters(a))).not.toBe(executionKey(b, {}, inputParameters(b)));
    },
  );

  it('finds nothing that was not sent', () => {
    const params = inputParameters(args([{ name: 'x', value: '1' }]));
    expect(params.constructor).toBeUndefined();
    expect(params.toString).toBeUndefined();
  });
});
