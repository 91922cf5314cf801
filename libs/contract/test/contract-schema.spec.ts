import { Template } from '@kubernetes-models/argo-workflows/argoproj.io/v1alpha1/Template';
import { argoSchemaValidator, pluginSwaggerValidator, schemaProblems } from '@app/local-agent';
import { marshalExecuteTemplateArgs } from '@app/argo-agent';
import { failed, running, succeeded } from '@app/plugin-kit';
import type { ExecuteTemplateArgs } from '@app/contract';

// Request bodies exactly as Argo's agent sends them (argo-plugin-facts.md §6, examples A, B and C).
const EXAMPLES: Record<string, string> = {
  A: '{"workflow":{"metadata":{"name":"template-executor-x7k2p","namespace":"argo","uid":"0b7c9a8e-3d1f-4c55-9a0e-2f4b6c1d8e90"}},"template":{"name":"main","inputs":{},"outputs":{},"metadata":{},"plugin":{"hello":{}}}}',
  B: '{"workflow":{"metadata":{"name":"massive-executor-q9w8e","namespace":"argo","uid":"5e0d1c2b-7a44-4f0e-b1a2-93c8d7e6f501"}},"template":{"name":"massive-plugin","inputs":{"parameters":[{"name":"idx","value":"3"}]},"outputs":{},"metadata":{},"plugin":{"massive":{}}}}',
  C: '{"workflow":{"metadata":{"name":"notify-abc12","namespace":"default","uid":"9f3e2d1c-0b6a-4e8f-a7d5-c4b3a2918f70"}},"template":{"name":"slack","inputs":{"parameters":[{"name":"text","value":"hi"},{"name":"channel","default":"#ci","value":"#ci"}]},"outputs":{},"metadata":{},"plugin":{"slack":{"attempt":"1","channel":"#ci","node":"notify-abc12.notify","text":"hi from notify-abc12","uid":"9f3e2d1c-0b6a-4e8f-a7d5-c4b3a2918f70"}},"retryStrategy":{"limit":"2"}}}',
};

describe('the wire contract matches Argo (models, JSON schema and plugin swagger)', () => {
  const templateSchema = argoSchemaValidator('Template');
  const argsSwagger = pluginSwaggerValidator('ExecuteTemplateArgs');
  const replySwagger = pluginSwaggerValidator('ExecuteTemplateReply');

  describe.each(Object.entries(EXAMPLES))('example %s', (_name, text) => {
    const args = JSON.parse(text) as ExecuteTemplateArgs;

    it('its template validates with the Template model generated from Argo v4 CRDs', () => {
      expect(() => new Template(args.template).validate()).not.toThrow();
    });

    it("its template validates against Argo's workflow JSON schema", () => {
      expect(schemaProblems(templateSchema, args.template)).toEqual([]);
    });

    it('the whole body validates against the plugin swagger', () => {
      expect(schemaProblems(argsSwagger, args)).toEqual([]);
    });

    it("the local agent encodes it byte for byte like Go's encoding/json", () => {
      expect(
        marshalExecuteTemplateArgs(args.workflow.metadata, args.template as Record<string, unknown>),
      ).toBe(text);
    });
  });

  it('rejects a template that is not an Argo template (the checks can fail)', () => {
    const bad = { name: 'x', plugin: 'not-an-object', retryStrategy: { limit: { nope: true } } };
    expect(schemaProblems(templateSchema, bad).length).toBeGreaterThan(0);
    expect(() => new Template(bad as never).validate()).toThrow();
  });

  it("the kit's replies validate against the swagger's ExecuteTemplateReply", () => {
    for (const reply of [
      succeeded({ ts: '1700000000.000100', n: 3, ok: true }, 'posted'),
      failed('nope'),
      running('building', '30s'),
      {},
    ]) {
      expect(schemaProblems(replySwagger, reply)).toEqual([]);
    }
    expect(schemaProblems(replySwagger, { node: { phase: 3 } }).length).toBeGreaterThan(0);
  });
});
