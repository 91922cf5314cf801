import { parseTokensConfig } from './tokens-file.js';

describe('tokens file', () => {
  it('parses tokens with defaults (the four event permissions and list workflows) and webhook clients', () => {
    const config = parseTokensConfig(`
tokens:
  - token: abc
    subject: system:serviceaccount:argo:ci
  - token: def
    namespaces: [argo]
    permissions: [list workfloweventbindings]
webhookClients:
  argo:
    github: { type: github, secret: s }
`);
    expect(config.tokens[0]!.permissions).toEqual([
      'list workfloweventbindings',
      'get workflowtemplates',
      'get clusterworkflowtemplates',
      'create workflows',
      'list workflows',
    ]);
    expect(config.tokens[1]).toMatchObject({
      namespaces: ['argo'],
      permissions: ['list workfloweventbindings'],
    });
    expect(config.webhookClients).toEqual(
      new Map([['argo', new Map([['github', { type: 'github', secret: 's' }]])]]),
    );
  });

  it('names every bad entry and field', () => {
    expect(() =>
      parseTokensConfig(
        `tokens:\n  - subject: x\n  - token: a b\n    permissions: [delete workflows]\n  - token: c\n    tokn: x\nwebhookClients:\n  argo:\n    sa: { type: bitbucket }\nextra: 1\n`,
        'tokens.yaml',
      ),
    ).toThrow(
      /^tokens\.yaml: extra: unknown field; tokens\[0\]\.token: is required; tokens\[1\]\.token: must not contain spaces; tokens\[1\]\.permissions: unknown permission "delete workflows".*; tokens\[2\]\.tokn: unknown field; webhookClients\.argo\.sa\.type: must be github or gitlab.*; webhookClients\.argo\.sa\.secret: must be a non-empty string$/,
    );
  });
});
