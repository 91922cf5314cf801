import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Ajv, type ValidateFunction } from 'ajv';
import { parse } from 'yaml';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * Argo's JSON schema and plugin swagger are data shared with this project, not part of it. They are looked
 * up in $ARGO_SHARED_DIR, then next to the repository (../shared), then at /work/shared.
 */
export function argoSharedDir(): string {
  const candidates = [process.env.ARGO_SHARED_DIR, join(repoRoot, '..', 'shared'), '/work/shared'].filter(
    (c): c is string => !!c,
  );
  const found = candidates.find((c) => existsSync(join(c, 'argo', 'workflow-jsonschema.json')));
  if (!found)
    throw new Error(`Argo's schema not found: set ARGO_SHARED_DIR (looked in ${candidates.join(', ')})`);
  return found;
}

const ARGO = 'io.argoproj.workflow.v1alpha1';
let workflowAjv: { ajv: Ajv2020; id: string } | undefined;

/** Validator for a definition of Argo's workflow JSON schema, e.g. `Workflow`, `Template`, `WorkflowEventBinding`. */
export function argoSchemaValidator(definition: string): ValidateFunction {
  if (!workflowAjv) {
    const schema = JSON.parse(
      readFileSync(join(argoSharedDir(), 'argo', 'workflow-jsonschema.json'), 'utf8'),
    ) as { $id: string };
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
    const swagger = parse(
      readFileSync(join(argoSharedDir(), 'argo', 'executor-plugin-swagger.yml'), 'utf8'),
    ) as {
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
