import { EnvValidationError, loadEnv } from '@app/plugin-kit';
import { AgentEnv } from './agent.env.js';

describe('the shared agent settings', () => {
  it('defaults as Argo agent where it has one (patch rate 10s), every namespace, no external plugin', () => {
    const env = loadEnv(AgentEnv, {});
    expect([env.ARGO_AGENT_PATCH_RATE, env.namespaces, env.externalPlugins]).toEqual(['10s', [], []]);
  });

  it('reads namespaces and external plugins in order', () => {
    const env = loadEnv(AgentEnv, {
      AGENT_NAMESPACES: 'team-a, team-b',
      AGENT_EXTERNAL_PLUGINS: 'hello=http://localhost:4355/;\nother=https://plugins.example/x',
    });
    expect(env.namespaces).toEqual(['team-a', 'team-b']);
    expect(env.externalPlugins).toEqual([
      { name: 'hello', url: 'http://localhost:4355' },
      { name: 'other', url: 'https://plugins.example/x' },
    ]);
  });

  // Each documented metadata or identity endpoint, and where the cloud documents it (docs/shared-agent.md).
  it.each([
    [
      '169.254.169.254',
      'AWS, Google Cloud, Azure, Oracle and DigitalOcean instance metadata',
      '169.254.0.0/16',
    ],
    ['::ffff:169.254.169.254', 'the same, as an IPv4-mapped IPv6 address', '169.254.0.0/16'],
    ['fd00:ec2::254', 'AWS instance metadata over IPv6', 'fd00:ec2::254/128'],
    ['169.254.170.2', 'AWS ECS task metadata and credentials', '169.254.0.0/16'],
    ['169.254.170.23', 'EKS Pod Identity agent', '169.254.0.0/16'],
    ['fd00:ec2::23', 'EKS Pod Identity agent over IPv6', 'fd00:ec2::23/128'],
    ['168.63.129.16', 'Azure WireServer', '168.63.129.16/32'],
    ['100.100.100.200', 'Alibaba Cloud instance metadata', '100.100.100.200/32'],
    ['::ffff:100.100.100.200', 'the same, IPv4-mapped', '100.100.100.200/32'],
    ['192.0.0.192', 'Oracle legacy instance metadata', '192.0.0.192/32'],
  ])('blocks %s (%s) by default', (address, _what, network) => {
    expect(loadEnv(AgentEnv, {}).blockedNetworks!.holding(address)).toBe(network);
  });

  it('blocks no public neighbour of those endpoints by default', () => {
    const blocked = loadEnv(AgentEnv, {}).blockedNetworks!;
    for (const address of ['168.63.129.17', '100.100.100.201', '192.0.0.193', 'fd00:ec2::255', '8.8.8.8'])
      expect([address, blocked.holding(address)]).toEqual([address, undefined]);
  });

  it('bounds every successCondition in steps and time by default, and checks both bounds at start', () => {
    const env = loadEnv(AgentEnv, {});
    expect([env.AGENT_EXPR_MAX_STEPS, env.AGENT_EXPR_TIMEOUT]).toEqual([100_000, '100ms']);
    expect(() => loadEnv(AgentEnv, { AGENT_EXPR_MAX_STEPS: '10', AGENT_EXPR_TIMEOUT: '1m' })).toThrow(
      EnvValidationError,
    );
    try {
      loadEnv(AgentEnv, { AGENT_EXPR_MAX_STEPS: '10', AGENT_EXPR_TIMEOUT: '1m' });
    } catch (e) {
      expect((e as EnvValidationError).problems).toEqual([
        'AGENT_EXPR_MAX_STEPS: must not be less than 100',
        expect.stringMatching(/^AGENT_EXPR_TIMEOUT: /),
      ]);
    }
  });

  it('gives one namespace a quarter of the slots by default, and every HTTP deadline a ceiling of 1h', () => {
    const env = loadEnv(AgentEnv, {});
    expect([env.maxTasksPerNamespace, env.AGENT_HTTP_MAX_TIMEOUT]).toEqual([64, '1h']);
    expect(loadEnv(AgentEnv, { AGENT_MAX_TASKS_IN_FLIGHT: '1000' }).maxTasksPerNamespace).toBe(250);
    try {
      loadEnv(AgentEnv, { AGENT_MAX_TASKS_PER_NAMESPACE: '300', AGENT_HTTP_MAX_TIMEOUT: '5m' });
    } catch (e) {
      expect((e as EnvValidationError).problems).toEqual([
        'AGENT_MAX_TASKS_PER_NAMESPACE: 300 is more than AGENT_MAX_TASKS_IN_FLIGHT (256)',
        'AGENT_HTTP_DEFAULT_TIMEOUT: 10m is longer than AGENT_HTTP_MAX_TIMEOUT (5m)',
      ]);
    }
    expect.assertions(3);
  });

  it('names every bad variable in one error', () => {
    let err: unknown;
    try {
      loadEnv(AgentEnv, {
        AGENT_NAMESPACES: 'Team_A',
        AGENT_EXTERNAL_PLUGINS: 'hello=ftp://x,hello=http://a,Bad=http://b,nothing',
        ARGO_AGENT_PATCH_RATE: '10',
        AGENT_MAX_TASKS_IN_FLIGHT: '0',
        AGENT_LEASE_NAMESPACE: 'Agents',
        AGENT_LEASE_PREFIX: 'Shared_Agent',
      });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(EnvValidationError);
    expect((err as EnvValidationError).problems).toEqual([
      expect.stringMatching(/^ARGO_AGENT_PATCH_RATE: /),
      'AGENT_MAX_TASKS_IN_FLIGHT: must not be less than 1',
      'AGENT_NAMESPACES: "Team_A" is not a namespace name',
      'AGENT_LEASE_NAMESPACE: "Agents" is not a namespace name',
      'AGENT_LEASE_PREFIX: "Shared_Agent" is not a Lease name prefix (lower-case letters, digits, - and ., at most 52)',
      'AGENT_EXTERNAL_PLUGINS: "hello=ftp://x": the URL must be http(s)',
      'AGENT_EXTERNAL_PLUGINS: "Bad=http://b": "Bad" is not a plugin name (lower-case letters, digits and -)',
      'AGENT_EXTERNAL_PLUGINS: "nothing": expected <name>=<url>',
    ]);
  });
});
