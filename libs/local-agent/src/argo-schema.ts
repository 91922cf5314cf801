import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Ajv, type ValidateFunction } from 'ajv';
import { parse } from 'yaml';
import { argoDataFile, argoWorkflowSchema } from './argo-data.js';

const ARGO = 'io.argoproj.workflow.v1alpha1';
let workflowAjv: { ajv: Ajv2020; id: string } | undefined;

/** Validator for a definition of Argo's workflow JSON schema, e.g. `Workflow`, `Template`, `WorkflowEventBinding`. */
export function argoSchemaValidator(definition: string): ValidateFunction {
  if (!workflowAjv) {
    const schema = argoWorkflowSchema();
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    ajv.addSchema(schema);
    workflowAjv = { ajv, id: schema.$id };
  }
  const fn = workflowAjv.ajv.getSchema(`${workflowAjv.id}#/definitions/${ARGO}.${definition}`);
  if (!fn) throw new Error(`no definition ${ARGO}.${definition} in Argo's schema`);
  return fn;
}

let swaggerAjv: Ajv | undefined;

/** Validator for a definition of the executor plugin swagger (`ExecuteTemplateArgs`, `ExecuteTemplateReply`, ...). */
export function pluginSwaggerValidator(definition: string): ValidateFunction {
  if (!swaggerAjv) {
    const swagger = parse(readFileSync(argoDataFile('executor-plugin-swagger.yml'), 'utf8')) as {
      definitions: Record<string, object>;
    };
    // go-swagger types these as the Go structs behind them, but their custom JSON marshalling puts a Go
    // duration string / an int or string on the wire (the definitions' own descriptions say so).
    swagger.definitions.Duration = { type: 'string' };
    swagger.definitions.IntOrString = { type: ['string', 'integer'] };
    swaggerAjv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    swaggerAjv.addSchema({ $id: 'swagger', definitions: swagger.definitions });
  }
  const fn = swaggerAjv.getSchema(`swagger#/definitions/${definition}`);
  if (!fn) throw new Error(`no definition ${definition} in the plugin swagger`);
  return fn;
}

/** Problems of `value` under `validate`, one line each (`/spec/templates/0: must have required property 'name'`). */
export function schemaProblems(validate: ValidateFunction, value: unknown): string[] {
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'}: ${e.message ?? 'invalid'}`);
}
