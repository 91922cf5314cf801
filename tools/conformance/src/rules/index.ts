import type { Rule } from '../rule.js';
import { authBeforeBody, authEveryPath, authExecute } from './auth.js';
import { badConfigFailed, badConfigStatus } from './bad-config.js';
import { foreignTemplate } from './foreign-template.js';
import { idempotency } from './idempotency.js';
import { coldStart, sigterm } from './lifecycle.js';
import { jsonBody, nodePhase, status200 } from './reply-shape.js';
import { noRequeueOnFailed, requeueFormat, requeueOnRunning } from './requeue.js';
import { noSecretInReply } from './secrets.js';
import { extraTemplateFields, keyOrder } from './tolerance.js';
import { unknownMethod } from './unknown-method.js';

/** Every rule, in report order (the order of docs/conformance.md). */
export const RULES: readonly Rule[] = [
  authExecute,
  authEveryPath,
  authBeforeBody,
  unknownMethod,
  foreignTemplate,
  status200,
  jsonBody,
  nodePhase,
  requeueOnRunning,
  requeueFormat,
  noRequeueOnFailed,
  badConfigStatus,
  badConfigFailed,
  idempotency,
  extraTemplateFields,
  keyOrder,
  coldStart,
  sigterm,
  noSecretInReply,
];
