import { hostOf, hostsToml, mirroredName, qualified, registryConfig } from './image-mirror.js';

describe("the real node's image mirror", () => {
  it('keeps each registry host as the first part of the path, so two hosts never share a repository', () => {
    expect(hostOf('ghcr.io/executor-plugins/executor-plugins/collection:0.1.0')).toBe('ghcr.io');
    expect(mirroredName(5000, 'docker.io/library/alpine:3.20')).toBe(
      '127.0.0.1:5000/docker.io/library/alpine:3.20',
    );
    expect(mirroredName(5000, 'quay.io/argoproj/argoexec:stack')).toBe(
      '127.0.0.1:5000/quay.io/argoproj/argoexec:stack',
    );
  });

  it('names a short image as the kubelet pulls it, from docker.io', () => {
    expect(qualified('reverse:0.1.0')).toBe('docker.io/library/reverse:0.1.0');
    expect(qualified('team/reverse:0.1.0')).toBe('docker.io/team/reverse:0.1.0');
    expect(qualified('localhost/executor-plugins/node-base:24')).toBe(
      'localhost/executor-plugins/node-base:24',
    );
    expect(qualified('registry.example.com:5000/a/b:1')).toBe('registry.example.com:5000/a/b:1');
    expect(hostOf('reverse:0.1.0')).toBe('docker.io');
    expect(mirroredName(5000, 'reverse:0.1.0')).toBe('127.0.0.1:5000/docker.io/library/reverse:0.1.0');
  });

  it("tells containerd to pull a host's images from the mirror's /v2/<host>, the upstream as the fallback", () => {
    expect(hostsToml(5000, 'docker.io')).toBe(
      [
        'server = "https://registry-1.docker.io"',
        '',
        '[host."http://127.0.0.1:5000/v2/docker.io"]',
        '  capabilities = ["pull", "resolve"]',
        '  override_path = true',
        '',
      ].join('\n'),
    );
    expect(hostsToml(5000, 'quay.io')).toMatch(/^server = "https:\/\/quay\.io"\n/);
  });

  it('serves plain HTTP on loopback only, from storage that outlives the stack', () => {
    const config = registryConfig(5000, '/cache/registry');
    expect(config).toContain('  addr: 127.0.0.1:5000\n');
    expect(config).toContain('    rootdirectory: /cache/registry\n');
    expect(config).not.toMatch(/tls:/);
  });
});
