import { parseDuration } from '@app/contract';
import { goUtf8 } from './go-utf8.js';
import { firstJsonValue } from './json-decode.js';
import { parseJsonTree, plainValue, type JsonTree } from './json-tree.js';
import { formatFloatF, GoKindError, goUnmarshal, GoUnmarshalTypeError, type GoType } from './go-unmarshal.js';

/**
 * The reply types of Argo v4.1 (pkg/plugins/executor ExecuteTemplateReply, v1alpha1 NodeResult, Outputs,
 * Parameter, Artifact) described for goUnmarshal, with the two custom decoders that matter:
 * - AnyString.UnmarshalJSON: a number becomes strconv.FormatFloat(f, 'f', -1, 64) (`1e21` →
 *   "1000000000000000000000"), a bool "true"/"false", a string itself; an object or array leaves it as it was
 *   (""); `null` on the `*AnyString` of a parameter value means no value at all;
 * - metav1.Duration.UnmarshalJSON: a string parsed by time.ParseDuration; anything else is the error of
 *   decoding it into a string (`... Go struct field ExecuteTemplateReply.requeue of type string`).
 * Artifact locations (s3, git, http, ...), ArchiveStrategy and ArtifactGC are kept as plain objects: only
 * their JSON kind is checked.
 */

const str = (type = 'string'): GoType => ({ kind: 'string', type });
const ptr = (elem: GoType): GoType => ({ kind: 'ptr', elem });
const bool: GoType = { kind: 'bool', type: 'bool' };

const anyString: GoType = {
  kind: 'unmarshaler',
  type: 'v1alpha1.AnyString',
  unmarshal(tree: JsonTree, current: unknown): unknown {
    switch (tree.kind) {
      case 'string':
        return tree.value;
      case 'bool':
        return String(tree.value);
      case 'number': {
        const f = Number(tree.text);
        if (!Number.isFinite(f)) throw new GoUnmarshalTypeError(`number ${tree.text}`, 'float64');
        return formatFloatF(f);
      }
      default:
        return current ?? '';
    }
  },
};

/** A nested object type kept whole: an object (or null) is accepted, any other JSON kind is a type error. */
function opaqueStruct(type: string): GoType {
  return {
    kind: 'unmarshaler',
    type,
    unmarshal(tree: JsonTree, current: unknown): unknown {
      if (tree.kind === 'object') return plainValue(tree);
      if (tree.kind === 'null') return current;
      throw new GoKindError(tree.kind, type);
    },
  };
}

const duration: GoType = {
  kind: 'unmarshaler',
  type: 'v1.Duration',
  unmarshal(tree: JsonTree): unknown {
    if (tree.kind !== 'string') throw new GoUnmarshalTypeError(tree.kind, 'string');
    return { text: tree.value, ms: parseDuration(tree.value) };
  },
};

const parameter: GoType = {
  kind: 'struct',
  type: 'v1alpha1.Parameter',
  fields: {
    name: str(),
    default: ptr(anyString),
    value: ptr(anyString),
    valueFrom: ptr(opaqueStruct('v1alpha1.ValueFrom')),
    globalName: str(),
    enum: { kind: 'slice', type: '[]v1alpha1.AnyString', elem: anyString },
    description: ptr(anyString),
  },
};

const LOCATIONS = ['s3', 'git', 'http', 'artifactory', 'hdfs', 'raw', 'oss', 'gcs', 'azure', 'plugin'];
const LOCATION_TYPES: Record<string, string> = {
  s3: 'S3Artifact',
  git: 'GitArtifact',
  http: 'HTTPArtifact',
  artifactory: 'ArtifactoryArtifact',
  hdfs: 'HDFSArtifact',
  raw: 'RawArtifact',
  oss: 'OSSArtifact',
  gcs: 'GCSArtifact',
  azure: 'AzureArtifact',
  plugin: 'PluginArtifact',
};

const artifact: GoType = {
  kind: 'struct',
  type: 'v1alpha1.Artifact',
  fields: {
    name: str(),
    path: str(),
    mode: ptr({ kind: 'int', type: 'int32', bits: 32 }),
    from: str(),
    // ArtifactLocation is inlined: its fields are the Artifact's own.
    archiveLogs: ptr(bool),
    ...Object.fromEntries(
      LOCATIONS.map((l) => [l, ptr(opaqueStruct(`v1alpha1.${LOCATION_TYPES[l]}`))] as const),
    ),
    globalName: str(),
    archive: ptr(opaqueStruct('v1alpha1.ArchiveStrategy')),
    optional: bool,
    subPath: str(),
    recurseMode: bool,
    fromExpression: str(),
    artifactGC: ptr(opaqueStruct('v1alpha1.ArtifactGC')),
    deleted: bool,
  },
};

const outputs: GoType = {
  kind: 'struct',
  type: 'v1alpha1.Outputs',
  fields: {
    parameters: { kind: 'slice', type: '[]v1alpha1.Parameter', elem: parameter },
    artifacts: { kind: 'slice', type: 'v1alpha1.Artifacts', elem: artifact },
    result: ptr(str()),
    exitCode: ptr(str()),
  },
};

const nodeResult: GoType = {
  kind: 'struct',
  type: 'v1alpha1.NodeResult',
  fields: {
    phase: str('v1alpha1.NodePhase'),
    message: str(),
    outputs: ptr(outputs),
    progress: str('v1alpha1.Progress'),
  },
};

export const EXECUTE_TEMPLATE_REPLY: GoType = {
  kind: 'struct',
  type: 'executor.ExecuteTemplateReply',
  fields: { node: ptr(nodeResult), requeue: ptr(duration) },
};

/** An output parameter as Go holds it: `value` is absent when the plugin sent none or `null`. */
export interface ArgoParameter {
  name: string;
  value?: string;
  default?: string;
  valueFrom?: Record<string, unknown>;
  globalName?: string;
  enum?: string[];
  description?: string;
}

export interface ArgoOutputs {
  parameters?: ArgoParameter[];
  artifacts?: Array<Record<string, unknown>>;
  result?: string;
  exitCode?: string;
}

/** wfv1.NodeResult as decoded: the phase is whatever string was sent (Argo does not check it). */
export interface ArgoNodeResult {
  phase?: string;
  message?: string;
  outputs?: ArgoOutputs;
  progress?: string;
}

/** executor.ExecuteTemplateReply as decoded. */
export interface ArgoReply {
  node?: ArgoNodeResult;
  requeue?: { text: string; ms: number };
}

/**
 * `json.NewDecoder(body).Decode(reply)` for a complete body: the first JSON value, decoded INTO `reply`
 * (the agent shares one reply object across its plugins, so fields of an earlier reply stay unless
 * overwritten). Throws GoDecodeError (syntax, EOF), GoUnmarshalTypeError or a duration error.
 */
export function decodeArgoReply(body: Buffer | string, reply: ArgoReply = {}): ArgoReply {
  const tree = parseJsonTree(goUtf8(firstJsonValue(body)));
  return goUnmarshal(tree, EXECUTE_TEMPLATE_REPLY, reply) as ArgoReply;
}
