import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  inClusterConnection,
  KubeConfigError,
  kubeconfigConnection,
  loadKubeConnection,
  TokenFileSource,
} from './kube-connection.js';

describe('kube connections', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kube-conn-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const kubeconfig = (user: string, extra = '') => {
    const path = join(dir, 'config');
    writeFileSync(
      path,
      [
        'apiVersion: v1',
        'kind: Config',
        'current-context: b',
        'clusters:',
        '- name: c1',
        '  cluster: {server: "https://10.0.0.1:6443", certificate-authority: pki/ca.crt}',
        '- name: c2',
        `  cluster: {server: "https://10.0.0.2:6443", certificate-authority-data: ${Buffer.from('CA2').toString('base64')}, tls-server-name: api}`,
        'users:',
        `- name: u`,
        `  user: ${user}`,
        'contexts:',
        '- name: a',
        '  context: {cluster: c1, user: u}',
        '- name: b',
        '  context: {cluster: c2, user: u, namespace: team}',
        extra,
      ].join('\n'),
    );
    return path;
  };

  it('reads the current context: server, CA data, TLS name, token and namespace', () => {
    expect(kubeconfigConnection(kubeconfig('{token: abc}'))).toMatchObject({
      server: 'https://10.0.0.2:6443',
      ca: 'CA2',
      tlsServerName: 'api',
      token: 'abc',
      namespace: 'team',
    });
  });

  it('resolves file paths against the kubeconfig folder, for another context too', () => {
    mkdirSync(join(dir, 'pki'));
    writeFileSync(join(dir, 'pki/ca.crt'), 'CA1');
    writeFileSync(join(dir, 'cert.pem'), 'CERT');
    const conn = kubeconfigConnection(
      kubeconfig(
        `{tokenFile: tok, client-certificate: cert.pem, client-key-data: ${Buffer.from('KEY').toString('base64')}}`,
      ),
      'a',
    );
    expect(conn).toMatchObject({ server: 'https://10.0.0.1:6443', ca: 'CA1', cert: 'CERT', key: 'KEY' });
    expect(conn.tokenFile).toBe(join(dir, 'tok'));
    expect(conn.namespace).toBeUndefined();
  });

  it('refuses exec credentials and a missing context, naming the file', () => {
    const path = kubeconfig('{exec: {command: aws}}');
    expect(() => kubeconfigConnection(path)).toThrow(`kubeconfig ${path}: user u: exec and auth-provider`);
    expect(() => kubeconfigConnection(path, 'z')).toThrow(KubeConfigError);
  });

  it('in a pod: the service account files and the kubernetes Service address', () => {
    writeFileSync(join(dir, 'token'), 'tok');
    writeFileSync(join(dir, 'ca.crt'), 'CA');
    writeFileSync(join(dir, 'namespace'), 'argo\n');
    const env = { KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443' };
    expect(inClusterConnection(env, dir)).toEqual({
      server: 'https://[fd00::1]:443',
      tokenFile: join(dir, 'token'),
      ca: 'CA',
      namespace: 'argo',
    });
    expect(() => inClusterConnection({}, dir)).toThrow(/KUBERNETES_SERVICE_HOST/);
  });

  it('KUBECONFIG wins over the pod', () => {
    const path = kubeconfig('{token: abc}');
    expect(loadKubeConnection({ KUBECONFIG: path, KUBERNETES_SERVICE_HOST: 'x' }).server).toBe(
      'https://10.0.0.2:6443',
    );
  });

  it('a token file is read again when it changes', () => {
    const file = join(dir, 'token');
    writeFileSync(file, 'one\n');
    const source = new TokenFileSource(file, 60_000);
    expect(source.current()).toBe('one');
    writeFileSync(file, 'two\n');
    const later = new Date(Date.now() + 5000);
    utimesSync(file, later, later);
    expect(source.current()).toBe('two');
  });
});
