// The real node's cluster DNS, as kubeadm installs it: CoreDNS (its image built here from the pinned module) as
// the `coredns` Deployment of kube-system behind the `kube-dns` Service, with kubeadm's Corefile and RBAC; and
// the Argo Server, which runs beside the node, as the `argo-server` Service of Argo's namespace (no selector: an
// EndpointSlice names its address), so `argo-server.argo:2746` reaches it from a pod as in a cluster.
import { stringify } from 'yaml';
import { ARGO_NAMESPACE, kubectl, until, type StackState } from './stack.js';

/** The kube-dns Service's address (the tenth of --service-cluster-ip-range, as kubeadm takes it). */
export const CLUSTER_DNS_IP = '10.96.0.10';
export const CLUSTER_DOMAIN = 'cluster.local';
/**
 * CoreDNS listens above 1024 in its pod: the image built here runs as UID 65532 and carries no file capability
 * for port 53 (upstream's image sets one with setcap); the Service answers on 53.
 */
const DNS_PORT = 1053;

/** kubeadm's Corefile, on DNS_PORT. */
export function corefile(): string {
  return `.:${DNS_PORT} {
    errors
    health {
       lameduck 5s
    }
    ready
    kubernetes ${CLUSTER_DOMAIN} in-addr.arpa ip6.arpa {
       pods insecure
       fallthrough in-addr.arpa ip6.arpa
       ttl 30
    }
    forward . /etc/resolv.conf {
       max_concurrent 1000
    }
    cache 30
    loop
    reload
    loadbalance
}
`;
}

const dnsLabels = { 'k8s-app': 'kube-dns' };

/** The manifests: RBAC, the Corefile, the Deployment and the kube-dns Service. */
export function clusterDnsManifests(image: string): object[] {
  const ns = 'kube-system';
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'coredns', namespace: ns } },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'system:coredns' },
      rules: [
        {
          apiGroups: [''],
          resources: ['endpoints', 'services', 'pods', 'namespaces'],
          verbs: ['list', 'watch'],
        },
        { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['list', 'watch'] },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'system:coredns' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:coredns' },
      subjects: [{ kind: 'ServiceAccount', name: 'coredns', namespace: ns }],
    },
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'coredns', namespace: ns },
      data: { Corefile: corefile() },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'coredns', namespace: ns, labels: dnsLabels },
      spec: {
        replicas: 1,
        selector: { matchLabels: dnsLabels },
        template: {
          metadata: { labels: dnsLabels },
          spec: {
            serviceAccountName: 'coredns',
            priorityClassName: 'system-cluster-critical',
            dnsPolicy: 'Default',
            containers: [
              {
                name: 'coredns',
                image,
                args: ['-conf', '/etc/coredns/Corefile'],
                ports: [
                  { name: 'dns', containerPort: DNS_PORT, protocol: 'UDP' },
                  { name: 'dns-tcp', containerPort: DNS_PORT, protocol: 'TCP' },
                ],
                resources: { requests: { cpu: '100m', memory: '70Mi' }, limits: { memory: '170Mi' } },
                securityContext: {
                  runAsNonRoot: true,
                  runAsUser: 65532,
                  allowPrivilegeEscalation: false,
                  readOnlyRootFilesystem: true,
                  capabilities: { drop: ['ALL'] },
                  seccompProfile: { type: 'RuntimeDefault' },
                },
                livenessProbe: {
                  httpGet: { path: '/health', port: 8080 },
                  initialDelaySeconds: 60,
                  periodSeconds: 10,
                  failureThreshold: 5,
                },
                readinessProbe: { httpGet: { path: '/ready', port: 8181 }, periodSeconds: 2 },
                volumeMounts: [{ name: 'config', mountPath: '/etc/coredns', readOnly: true }],
              },
            ],
            volumes: [{ name: 'config', configMap: { name: 'coredns' } }],
          },
        },
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'kube-dns', namespace: ns, labels: dnsLabels },
      spec: {
        clusterIP: CLUSTER_DNS_IP,
        selector: dnsLabels,
        ports: [
          { name: 'dns', port: 53, targetPort: DNS_PORT, protocol: 'UDP' },
          { name: 'dns-tcp', port: 53, targetPort: DNS_PORT, protocol: 'TCP' },
        ],
      },
    },
  ];
}

/** The Argo Server as a Service without a selector, its EndpointSlice naming the server beside the node. */
export function argoServerService(state: StackState): object[] {
  return [
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'argo-server', namespace: ARGO_NAMESPACE },
      spec: { ports: [{ name: 'web', port: 2746, protocol: 'TCP' }] },
    },
    {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: {
        name: 'argo-server-stack',
        namespace: ARGO_NAMESPACE,
        labels: { 'kubernetes.io/service-name': 'argo-server' },
      },
      addressType: 'IPv4',
      endpoints: [{ addresses: [state.hostAddr], conditions: { ready: true } }],
      ports: [{ name: 'web', port: state.ports.argoServer, protocol: 'TCP' }],
    },
  ];
}

/** Applies both and waits for CoreDNS to be ready. */
export async function startClusterDns(state: StackState, image: string, log: (line: string) => void) {
  const started = Date.now();
  const docs = [...clusterDnsManifests(image), ...argoServerService(state)];
  kubectl(state, ['apply', '-f', '-'], docs.map((d) => stringify(d)).join('---\n'));
  await until('CoreDNS ready', 180, () => {
    const ready = kubectl(state, [
      'get',
      'deployment',
      'coredns',
      '-n',
      'kube-system',
      '-o',
      'jsonpath={.status.readyReplicas}',
    ]);
    return ready === '1' ? true : undefined;
  });
  log(`cluster DNS ready in ${((Date.now() - started) / 1000).toFixed(1)} s (kube-dns ${CLUSTER_DNS_IP})`);
}
