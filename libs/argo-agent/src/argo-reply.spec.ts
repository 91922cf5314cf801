import { decodeArgoReply, type ArgoReply } from './argo-reply.js';
import { formatFloatF } from './go-unmarshal.js';
import { FirstValueReader } from './json-decode.js';

/**
 * encoding/json into executor.ExecuteTemplateReply, as Go documents it. Each row: the body, then what Go
 * decodes (a reply) or the error text it returns.
 */
const decoded: Array<[string, string, ArgoReply]> = [
  ['exact keys', '{"node":{"phase":"Succeeded"}}', { node: { phase: 'Succeeded' } }],
  [
    'keys in any ASCII case',
    '{"NODE":{"PhAsE":"Running"},"REQUEUE":"2s"}',
    { node: { phase: 'Running' }, requeue: { text: '2s', ms: 2000 } },
  ],
  ['ſ folds onto s', '{"node":{"meſſage":"long s"}}', { node: { message: 'long s' } }],
  [
    'unknown keys are ignored',
    '{"node":{"phase":"Succeeded","extra":[1,{"a":null}]},"x":1}',
    { node: { phase: 'Succeeded' } },
  ],
  [
    'only the first value is read',
    '{"node":{"phase":"Succeeded"}} trailing {garbage',
    { node: { phase: 'Succeeded' } },
  ],
  ['null is nothing', 'null', {}],
  ['a null node and requeue stay nil', '{"node":null,"requeue":null}', {}],
  ['a later null clears an earlier node', '{"node":{"phase":"Running"},"node":null}', {}],
  [
    'duplicate node keys merge',
    '{"node":{"phase":"Failed","message":"a"},"Node":{"message":"b"}}',
    { node: { phase: 'Failed', message: 'b' } },
  ],
  [
    'a duplicate array is decoded into the elements already there',
    '{"node":{"outputs":{"parameters":[{"name":"a","value":"1"},{"name":"b"}],"parameters":[{"name":"c"}]}}}',
    { node: { outputs: { parameters: [{ name: 'c', value: '1' }] } } },
  ],
  [
    'AnyString: numbers with strconv.FormatFloat(f, \'f\', -1, 64), bools, strings; objects give ""',
    '{"node":{"outputs":{"parameters":[{"name":"a","value":1e21},{"name":"b","value":1.5},{"name":"c","value":1e-7},{"name":"d","value":true},{"name":"e","value":{"x":1}},{"name":"f","value":-0},{"name":"g","value":12345678901234567890}]}}}',
    {
      node: {
        outputs: {
          parameters: [
            { name: 'a', value: '1000000000000000000000' },
            { name: 'b', value: '1.5' },
            { name: 'c', value: '0.0000001' },
            { name: 'd', value: 'true' },
            { name: 'e', value: '' },
            { name: 'f', value: '-0' },
            { name: 'g', value: '12345678901234567000' },
          ],
        },
      },
    },
  ],
  [
    'a null parameter value is no value',
    '{"node":{"outputs":{"parameters":[{"name":"a","value":null}]}}}',
    { node: { outputs: { parameters: [{ name: 'a' }] } } },
  ],
  [
    'an empty array is an empty slice',
    '{"node":{"outputs":{"parameters":[]}}}',
    { node: { outputs: { parameters: [] } } },
  ],
];

const failures: Array<[string, string, string]> = [
  ['empty body', '', 'EOF'],
  ['only space', ' \n\t', 'EOF'],
  ['a UTF-8 BOM', '\uFEFF{}', "invalid character 'ï' looking for beginning of value"],
  ['a value cut short', '{"node":{"phase":"Succ', 'unexpected EOF'],
  ['single quotes', "{'node':1}", "invalid character '\\'' looking for beginning of object key string"],
  ['a missing colon', '{"node" 1}', "invalid character '1' after object key"],
  ['a trailing comma', '{"node":{},}', "invalid character '}' looking for beginning of object key string"],
  ['a control character in a string', '{"node":"a\nb"}', "invalid character '\\n' in string literal"],
  ['a bad literal', '{"node":nul}', "invalid character '}' in literal null (expecting 'l')"],
  [
    'a top-level array',
    '[]',
    'json: cannot unmarshal array into Go value of type executor.ExecuteTemplateReply',
  ],
  [
    'a top-level number',
    '5',
    'json: cannot unmarshal number into Go value of type executor.ExecuteTemplateReply',
  ],
  [
    'node is a string',
    '{"node":"x"}',
    'json: cannot unmarshal string into Go struct field ExecuteTemplateReply.node of type v1alpha1.NodeResult',
  ],
  [
    'phase is a number',
    '{"node":{"phase":1}}',
    'json: cannot unmarshal number into Go struct field NodeResult.node.phase of type v1alpha1.NodePhase',
  ],
  [
    'an artifact location that is not an object',
    '{"node":{"outputs":{"artifacts":[{"name":"a","s3":"x"}]}}}',
    'json: cannot unmarshal string into Go struct field Artifact.node.outputs.artifacts.s3 of type v1alpha1.S3Artifact',
  ],
  [
    'an artifact mode out of int32',
    '{"node":{"outputs":{"artifacts":[{"name":"a","mode":4294967296}]}}}',
    'json: cannot unmarshal number 4294967296 into Go struct field Artifact.node.outputs.artifacts.mode of type int32',
  ],
  [
    'the first type error is the one returned',
    '{"node":{"phase":1,"message":2}}',
    'json: cannot unmarshal number into Go struct field NodeResult.node.phase of type v1alpha1.NodePhase',
  ],
  [
    'requeue is a number',
    '{"requeue":30}',
    'json: cannot unmarshal number into Go struct field ExecuteTemplateReply.requeue of type string',
  ],
  ['requeue is not a duration', '{"requeue":"soon"}', 'time: invalid duration "soon"'],
  [
    'a parameter value too large for a float64',
    '{"node":{"outputs":{"parameters":[{"name":"a","value":1e400}]}}}',
    'json: cannot unmarshal number 1e400 into Go struct field Parameter.node.outputs.parameters.value of type float64',
  ],
];

describe('decodeArgoReply: encoding/json into ExecuteTemplateReply', () => {
  it.each(decoded)('%s', (_what, body, reply) => {
    expect(decodeArgoReply(body)).toEqual(reply);
  });

  it.each(failures)('%s', (_what, body, message) => {
    expect(() => decodeArgoReply(body)).toThrow(message);
    try {
      decodeArgoReply(body);
    } catch (err) {
      expect((err as Error).message).toBe(message);
    }
  });

  it('decodes INTO the reply it is given (the agent shares one across plugins)', () => {
    const shared = decodeArgoReply('{"requeue":"5s"}');
    expect(decodeArgoReply('{"node":{"phase":"Running"}}', shared)).toEqual({
      node: { phase: 'Running' },
      requeue: { text: '5s', ms: 5000 },
    });
  });
});

describe('FirstValueReader: json.Decoder reading a stream', () => {
  it('an object is complete at its closing brace, before the stream ends', () => {
    const reader = new FirstValueReader();
    expect(reader.push(Buffer.from('  {"a":[1,{"b":"}"}]'))).toBe(false);
    expect(reader.push(Buffer.from('} and then nothing more'))).toBe(true);
    expect(reader.value().toString()).toBe('{"a":[1,{"b":"}"}]}');
  });

  it('a top-level number needs the next byte or the end of the stream', () => {
    const reader = new FirstValueReader();
    expect(reader.push(Buffer.from('12'))).toBe(false);
    reader.end();
    expect(reader.value().toString()).toBe('12');
  });
});

describe('formatFloatF', () => {
  it.each([
    [0, '0'],
    [100, '100'],
    [0.1, '0.1'],
    [-2.5e-3, '-0.0025'],
    [1.7976931348623157e308, `17976931348623157${'0'.repeat(292)}`],
  ])('%p → %s', (x, text) => {
    expect(formatFloatF(x)).toBe(text);
  });
});
