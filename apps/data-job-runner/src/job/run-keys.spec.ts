import fc from 'fast-check';
import {
  airflowDagRunId,
  databricksIdempotencyToken,
  dbtCause,
  dbtCauseMarker,
  livyBatchName,
} from './run-keys.js';

const key = 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90';
const hexKey = fc.stringMatching(/^[0-9a-f]{64}$/);

describe('upstream run keys', () => {
  it('Databricks: the whole key, 64 characters', () => {
    expect(databricksIdempotencyToken(key)).toBe(key);
    expect(databricksIdempotencyToken(key)).toHaveLength(64);
  });

  it('Airflow: a plain dag_run_id within 250 characters for any workflow name', () => {
    expect(airflowDagRunId('etl-2024.01', key)).toBe(`argo__etl-2024.01__${key.slice(0, 32)}`);
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), hexKey, (name, k) => {
        const id = airflowDagRunId(name, k);
        expect(id).toMatch(/^[A-Za-z0-9_.~:+-]{1,250}$/);
        expect(id.endsWith(k.slice(0, 32))).toBe(true);
      }),
    );
  });

  it('dbt Cloud: the marker survives any author cause, within 255 characters', () => {
    const wf = { namespace: 'argo', name: 'wf-1' };
    expect(dbtCause(key, undefined, wf)).toBe(`Argo workflow argo/wf-1 [argo K=${key.slice(0, 32)}]`);
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), hexKey, (cause, k) => {
        const text = dbtCause(k, cause, wf);
        expect(text.length).toBeLessThanOrEqual(255);
        expect(text).toContain(dbtCauseMarker(k));
      }),
    );
  });

  it('Livy: a name that is never all digits', () => {
    expect(livyBatchName(key)).toBe(`argo-${key.slice(0, 24)}`);
    expect(livyBatchName('000000000000000000000000ffff', 'nightly')).toBe('nightly-000000000000000000000000');
    expect(livyBatchName('0'.repeat(64))).not.toMatch(/^\d+$/);
  });
});
