// The DTOs' @Type reads decorator metadata; in a sidecar the plugin runtime loads the polyfill before them.
import 'reflect-metadata';
import { PluginConfigError } from '@app/plugin-kit';
import { validatePluginConfig } from '@app/plugin-kit/config/plugin-config.js';
import { buildConfigClass } from './build-config.dto.js';
import { PROVIDERS } from '../providers/index.js';

/** The providers, as the body's "exactly one provider block" names them: the table's keys in its order. */
const KEYS = PROVIDERS.keys.join(', ');

// The body class as the module builds it: the settings and each CI system's block, from the table.
const BuildConfig = await buildConfigClass();
const validate = (body: unknown) => validatePluginConfig(BuildConfig, body);
const problemsOf = (body: unknown): string[] => {
  const result = validate(body);
  return result.ok ? [] : result.problems;
};
const github = { repo: 'acme/web', workflow: 'ci.yml', ref: 'main' };

describe('BuildConfig', () => {
  it('applies defaults and accepts the documented shapes', () => {
    const result = validate({ jenkins: { job: 'folder/app', parameters: { A: 1, B: true, C: 'x' } } });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config).toMatchObject({ wait: true, pollInterval: '30s', unstableIsSuccess: false });
    expect(result.config.timeout).toBeUndefined();
    for (const body of [
      {
        github: { ...github, workflow: 1234, inputs: { env: 'staging', dry_run: false } },
        timeout: '1h',
        key: 3,
      },
      {
        gitlab: { project: 42, ref: 'v1.2.3', variables: { DEPLOY_ENV: 'prod' } },
        wait: 'false',
        server: 'eu-west',
      },
      { gitlab: { project: 'group/sub/proj', ref: 'refs/heads/main' }, pollInterval: '1m30s' },
      { jenkins: { job: 'org/repo', branch: 'feature/x' }, unstableIsSuccess: 'true' },
    ]) {
      expect(problemsOf(body)).toEqual([]);
    }
  });

  it.each([
    [{ jenkins: { job: 'a/../b' } }, 'jenkins.job: must not contain . or .. segments'],
    [{ jenkins: { job: 'a//b' } }, 'jenkins.job: must not contain empty path segments (//)'],
    [{ jenkins: {} }, 'jenkins.job: must be a job name or folder path such as folder/sub/job'],
    [{ jenkins: { job: 'x', branch: '..' } }, 'jenkins.branch: must not be . or ..'],
    [
      { jenkins: { job: 'x', parameters: { ARGO_KEY: 'mine' } } },
      'jenkins.parameters: "ARGO_KEY" is set by the plugin itself (build correlation) and cannot be given',
    ],
    [
      { jenkins: { job: 'x', parameters: { A: { nested: 1 } } } },
      'jenkins.parameters: "A" must be a string, number or boolean',
    ],
    [
      { jenkins: { job: 'x', parameters: ['A=1'] } },
      'jenkins.parameters: must be a map of names to strings, numbers or booleans',
    ],
    [{ github: { ...github, repo: 'acme' } }, 'github.repo: must be owner/repo'],
    [{ github: { ...github, repo: '../x' } }, 'github.repo: must not contain . or .. segments'],
    [
      { github: { ...github, workflow: '.github/workflows/ci.yml' } },
      'github.workflow: must be the file name only: "ci.yml"',
    ],
    [
      { github: { ...github, workflow: 'https://evil.example/x' } },
      'github.workflow: must be a workflow file name (ci.yml) or a numeric workflow id',
    ],
    [{ github: { ...github, ref: 'main..x' } }, 'github.ref: is not a valid git ref'],
    [{ github: { repo: 'a/b', workflow: 'ci.yml' } }, 'github.ref: must be a branch or tag name'],
    [
      { github: { ...github, inputs: { argo_key: 'x' } } },
      'github.inputs: "argo_key" is set by the plugin itself (build correlation) and cannot be given',
    ],
    [
      { github: { ...github, inputs: { '1bad': 'x' } } },
      'github.inputs: "1bad" is not a valid name (letters, digits, _ and -, not starting with a digit)',
    ],
    [
      {
        github: {
          ...github,
          inputs: Object.fromEntries(Array.from({ length: 26 }, (_, i) => [`i${i}`, 'v'])),
        },
      },
      'github.inputs: must have at most 25 entries (got 26)',
    ],
    [
      { gitlab: { project: 'http://evil.example/x', ref: 'main' } },
      'gitlab.project: must be a project id or a path such as group/project',
    ],
    [
      { gitlab: { project: 'g/p', ref: 'main', variables: { 'BAD-NAME': 'x' } } },
      'gitlab.variables: "BAD-NAME" is not a valid name (letters, digits and _ only)',
    ],
    [
      { gitlab: { project: 'g/p', ref: 'main' }, pollInterval: '100ms' },
      'pollInterval: must be a Go duration such as 30s or 1m30s between 1s and 24h0m0s',
    ],
    [
      { gitlab: { project: 'g/p', ref: 'main' }, timeout: 'soon' },
      'timeout: must be a Go duration such as 30s or 1m30s between 1s and 720h0m0s',
    ],
    [{ gitlab: { project: 'g/p', ref: 'main' }, wait: 'maybe' }, 'wait: must be a boolean value'],
    [
      { gitlab: { project: 'g/p', ref: 'main' }, server: 'https://evil.example' },
      'server: must be a server name such as prod or eu-west',
    ],
    [{ gitlab: { project: 'g/p', ref: 'main' }, url: 'https://evil.example' }, 'url: unknown field'],
    [{ githib: github }, 'githib: unknown field (did you mean "github"?)'],
    [{ gitlab: { project: 'g/p', ref: 'main', host: 'evil.example' } }, 'gitlab.host: unknown field'],
    // A block's own check is its class's, never a field of the body.
    [{ gitlab: { project: 'g/p', ref: 'main', problems: [] } }, 'gitlab.problems: unknown field'],
  ])('%j → %s', (body, problem) => {
    expect(problemsOf(body)).toContain(problem);
  });

  describe('exactly one provider block', () => {
    const choose = (body: object) => {
      const result = validate(body);
      if (!result.ok) throw new Error(result.problems.join('; '));
      return { provider: PROVIDERS.pickBlock(result.config).key };
    };

    it('picks the one block given', () => {
      expect(choose({ github }).provider).toBe('github');
      expect(choose({ jenkins: { job: 'x' }, unstableIsSuccess: true }).provider).toBe('jenkins');
    });

    it.each([
      [{}, `body: exactly one provider block is required (${KEYS}); got none`],
      [{ wait: false }, `body: exactly one provider block is required (${KEYS}); got none`],
      [
        { jenkins: { job: 'x' }, github },
        `body: exactly one provider block is required (${KEYS}); got jenkins and github`,
      ],
      [{ github, unstableIsSuccess: true }, 'unstableIsSuccess: only applies to jenkins builds, not github'],
    ])('%j → %s', (body, message) => {
      expect(() => choose(body)).toThrow(new PluginConfigError(message));
    });
  });
});
