import { Redactor } from '@app/plugin-kit';
import { createMemoryLogger } from '@app/plugin-kit';
import { StepFunctionsStandIn } from '../../../stand-ins/step-functions/step-functions.stand-in.js';
import type { StepFunctionsBlock } from './step-functions-block.dto.js';
import { executionArn, StepFunctionsProvider } from './step-functions.provider.js';

const KEY = 'c0ffee00'.repeat(8);
const KEYS = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
};
const workflow = { name: 'wf', namespace: 'argo', uid: 'u' };

describe('StepFunctionsProvider', () => {
  const sfn = new StepFunctionsStandIn({ keys: [KEYS] });
  const machine = sfn.addStateMachine({ name: 'orders' });
  beforeAll(() => sfn.start());
  afterAll(() => sfn.close());
  const provider = (secretAccessKey = KEYS.secretAccessKey) =>
    new StepFunctionsProvider(
      { region: sfn.region, endpoint: sfn.url, keys: { ...KEYS, secretAccessKey } },
      { timeoutMs: 2000, redactor: new Redactor() },
    );
  const start = (p: StepFunctionsProvider, block: Partial<StepFunctionsBlock> = {}) =>
    p.start({
      block: { stateMachineArn: machine, input: { date: '2024-01-01' }, ...block } as StepFunctionsBlock,
      key: KEY,
      workflow,
      signal: AbortSignal.timeout(5000),
      logger: createMemoryLogger(new Redactor()).logger,
    });

  it('derives the execution ARN of a state machine, a version or an alias', () => {
    expect(executionArn('arn:aws:states:eu-west-1:123456789012:stateMachine:orders', 'n')).toBe(
      'arn:aws:states:eu-west-1:123456789012:execution:orders:n',
    );
    expect(executionArn('arn:aws:states:eu-west-1:123456789012:stateMachine:orders:prod', 'n')).toBe(
      'arn:aws:states:eu-west-1:123456789012:execution:orders:n',
    );
  });

  it('signs with SigV4 as the stand-in recomputes it, and a wrong secret is refused', async () => {
    const run = await start(provider(), { name: 'signed' });
    expect(run.ref.runId).toBe(executionArn(machine, `signed-${KEY.slice(0, 32)}`));
    const err = (await start(provider('wrong-secret-wrong-secret-wrong-secret00'), { name: 'refused' }).catch(
      (e: unknown) => e,
    )) as Error;
    expect(err.message).toMatch(
      /^stepFunctions: StartExecution → 403 InvalidSignatureException: The request signature we calculated does not match/,
    );
  });

  it('returns the same execution on a repeated start, running or closed', async () => {
    const p = provider();
    const first = await start(p, { name: 'again' });
    const second = await start(p, { name: 'again' });
    expect(second.ref).toEqual(first.ref);
    for (let i = 0; i < 5; i++)
      await p.poll({
        ref: first.ref,
        block: {} as StepFunctionsBlock,
        signal: AbortSignal.timeout(5000),
        cancelRequested: false,
        declaredOutputs: new Set(),
      });
    const third = await start(p, { name: 'again' });
    expect(third.ref).toEqual(first.ref);
    expect([...sfn.executions.values()].filter((e) => e.name.startsWith('again-'))).toHaveLength(1);
  });
});
