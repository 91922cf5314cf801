// The parts of a core/v1 Pod the runner reads and writes.
export interface KeyRef {
  name: string;
  key: string;
  optional?: boolean;
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: KeyRef;
    configMapKeyRef?: KeyRef;
    fieldRef?: { fieldPath: string };
    resourceFieldRef?: { resource: string; divisor?: string; containerName?: string };
  };
}

export interface VolumeMount {
  name: string;
  mountPath: string;
  subPath?: string;
  readOnly?: boolean;
}

export interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  env?: EnvVar[];
  envFrom?: Array<{
    prefix?: string;
    secretRef?: { name: string; optional?: boolean };
    configMapRef?: { name: string; optional?: boolean };
  }>;
  workingDir?: string;
  volumeMounts?: VolumeMount[];
  resources?: { limits?: Record<string, string>; requests?: Record<string, string> };
  ports?: Array<{ containerPort: number }>;
}

export interface KeyToPath {
  key: string;
  path: string;
}

export interface ProjectionSource {
  serviceAccountToken?: { path: string; expirationSeconds?: number; audience?: string };
  configMap?: { name: string; items?: KeyToPath[]; optional?: boolean };
  secret?: { name: string; items?: KeyToPath[]; optional?: boolean };
  downwardAPI?: { items: Array<{ path: string; fieldRef?: { fieldPath: string } }> };
}

export interface Volume {
  name: string;
  emptyDir?: object;
  secret?: { secretName: string; items?: KeyToPath[]; optional?: boolean };
  configMap?: { name: string; items?: KeyToPath[]; optional?: boolean };
  projected?: { sources: ProjectionSource[] };
  downwardAPI?: { items: Array<{ path: string; fieldRef?: { fieldPath: string } }> };
}

export interface Pod {
  metadata: {
    name: string;
    namespace: string;
    uid: string;
    resourceVersion?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    deletionTimestamp?: string;
    deletionGracePeriodSeconds?: number;
  };
  spec: {
    nodeName?: string;
    schedulerName?: string;
    serviceAccountName?: string;
    restartPolicy?: 'Always' | 'OnFailure' | 'Never';
    terminationGracePeriodSeconds?: number;
    initContainers?: Container[];
    containers: Container[];
    volumes?: Volume[];
  };
  status?: { phase?: string };
}

export interface ContainerState {
  waiting?: { reason: string; message?: string };
  running?: { startedAt: string };
  terminated?: { exitCode: number; reason: string; startedAt?: string; finishedAt: string; message?: string };
}

export interface ContainerStatus {
  name: string;
  image: string;
  imageID: string;
  ready: boolean;
  started: boolean;
  restartCount: number;
  state: ContainerState;
  lastState: ContainerState;
}

export type DataObject = { data?: Record<string, string>; stringData?: Record<string, string> };
