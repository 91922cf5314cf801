import { testBindings, type TestReport } from './binding-tester.js';
import { renderTestReport } from './render-report.js';

const WFT = {
  apiVersion: 'argoproj.io/v1alpha1',
  kind: 'WorkflowTemplate',
  metadata: { name: 'deploy', namespace: 'argo' },
  spec: { entrypoint: 'main', templates: [{ name: 'main', container: { image: 'busybox' } }] },
};

function binding(name: string, selector: string, submit?: Record<string, unknown>) {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'WorkflowEventBinding',
    metadata: { name, namespace: 'argo' },
    spec: { event: { selector }, ...(submit && { submit }) },
  };
}

const submit = (params: Record<string, string> = {}, metadata?: Record<string, unknown>) => ({
  workflowTemplateRef: { name: 'deploy' },
  arguments: { parameters: Object.entries(params).map(([name, event]) => ({ name, valueFrom: { event } })) },
  ...(metadata && { metadata }),
});

function run(
  bindings: Array<Record<string, unknown>>,
  body: string | undefined,
  headers: Array<[string, string]> = [],
): TestReport {
  return testBindings({
    objects: [WFT, ...bindings].map((object, i) => ({ object, source: `objects[${i}]` })),
    body: Buffer.from(body ?? ''),
    headers,
    namespace: 'argo',
    discriminator: '',
    remoteAddress: '127.0.0.1',
    host: 'localhost:2746',
  });
}

const only = (report: TestReport) => report.bindings[0]!;

describe('binding tester', () => {
  it('reports a match with the selector value, parameters, name and labels', () => {
    const report = run(
      [
        binding(
          'b',
          'payload.ref == "main"',
          submit({ version: 'payload.version' }, { labels: { team: '"ops"' } }),
        ),
      ],
      '{"ref":"main","version":"1.2.3"}',
    );
    expect(report.ok).toBe(true);
    expect(only(report)).toMatchObject({
      outcome: 'matched',
      selectorValue: 'true',
      workflow: {
        randomSuffix: true,
        generateName: 'deploy-',
        template: 'deploy',
        parameters: [{ name: 'version', value: '1.2.3' }],
        labels: {
          'workflows.argoproj.io/workflow-template': 'deploy',
          'workflows.argoproj.io/workflow-event-binding': 'b',
          team: 'ops',
        },
      },
      hints: [],
    });
    expect(renderTestReport(report)).toContain(
      'would submit Workflow deploy-<5 random characters> from WorkflowTemplate deploy',
    );
  });

  it('hint: a header compared to a bare string instead of a list', () => {
    const report = run([binding('b', 'metadata["x-github-event"] == "push"', submit())], '{}', [
      ['X-GitHub-Event', 'push'],
    ]);
    expect(only(report).outcome).toBe('not matched');
    expect(only(report).failed).toEqual({
      condition: 'metadata["x-github-event"] == "push"',
      actual: 'metadata["x-github-event"] is ["push"]',
    });
    const text = renderTestReport(report);
    expect(text).toContain(
      '    false:    metadata["x-github-event"] == "push" (metadata["x-github-event"] is ["push"])',
    );
    expect(text).toContain('1 binding: 0 matched, 0 with errors');
    expect(only(report).hints).toEqual([
      'metadata["x-github-event"] is a list of strings, so `metadata["x-github-event"] == "push"` is always false: write metadata["x-github-event"] == ["push"] (or "push" in metadata["x-github-event"])',
    ]);
  });

  it('hint: upper-case and non-x- header names never match; the note says which -H headers are dropped', () => {
    const report = run(
      [
        binding(
          'b',
          'metadata["X-GitHub-Event"] == ["push"] || metadata["github-event"] == ["push"]',
          submit(),
        ),
      ],
      '{}',
      [
        ['X-GitHub-Event', 'push'],
        ['GitHub-Event', 'push'],
      ],
    );
    expect(only(report).hints).toEqual([
      'metadata["X-GitHub-Event"] is always nil: header names are lower-cased, use metadata["x-github-event"]',
      'metadata["github-event"] is always nil: only headers whose names start with x- reach bindings (send it as X-github-event)',
    ]);
    expect(report.notes).toEqual([
      'header GitHub-Event is not visible to bindings: only headers starting with x- are kept',
    ]);
    expect(report.metadata['x-github-event']).toEqual(['push']);
  });

  it('hint: event.payload instead of payload (the docs mistake), also in a binding that did not match', () => {
    const matched = run([binding('b', 'event.payload.message != ""', submit())], '{"message":"hi"}');
    expect(only(matched).outcome).toBe('error');
    expect(only(matched).error).toMatch(
      /^failed to dispatch event: failed to evaluate workflow template expression: unknown name event/,
    );
    expect(only(matched).hints).toContain(
      'the variables are payload, metadata, discriminator and namespace: write payload.x, not event.payload.x (the Argo docs example has this mistake)',
    );
    const latent = run([binding('b', 'false', submit({ m: 'event.payload.message' }))], '{}');
    expect(only(latent).outcome).toBe('not matched');
    expect(only(latent).whenMatched![0]).toMatch(/^parameter m: unknown name event \(1:1\)/);
    expect(latent.ok).toBe(true);
  });

  it('hint: a missing nil guard names the nil part of the path', () => {
    const report = run(
      [binding('b', 'payload.pull_request.merged == true', submit())],
      '{"action":"opened"}',
    );
    expect(only(report).error).toContain('cannot fetch merged from <nil>');
    expect(only(report).hints).toEqual([
      'payload.pull_request is nil in this event, so .merged fails: guard it with payload.pull_request?.merged (and ?? for a default) or test payload.pull_request != nil first',
    ]);
  });

  it('hint: an empty body makes payload.x a compile error: send {}', () => {
    const report = run([binding('b', 'payload != nil && payload.ref == "main"', submit())], '');
    expect(report.payload).toBeNull();
    expect(only(report).error).toContain('type nil has no field ref');
    expect(only(report).hints).toContain(
      'the body was empty (or null), so payload is nil and every payload.x is a compile error, even behind a nil check: send {} instead of no body',
    );
  });

  it.each([
    ['payload.pr', 'float64', 'string(int(x)) for plain digits'],
    ['payload.missing', '<nil>', '?? "default"'],
    ['payload.labels', '[]interface {}', 'wrap it in string(...)'],
  ])('hint: a name expression %s that is a %s', (name, type, advice) => {
    const report = run([binding('b', 'true', submit({}, { name }))], '{"pr":112,"labels":["a"]}');
    expect(only(report).error).toBe(
      `failed to dispatch event: workflow name expression must evaluate to a string, not a ${type}`,
    );
    expect(only(report).hints.join('\n')).toContain(advice);
  });

  it('hint: an unquoted literal name', () => {
    const report = run([binding('b', 'true', submit({}, { name: 'release' }))], '{}');
    expect(only(report).error).toContain('unknown name release');
    expect(only(report).hints).toEqual([
      `a literal name needs quotes inside the expression: in YAML write '"release..."' (single quotes around a double-quoted string)`,
    ]);
  });

  it('hint: a binding without submit and one whose template is missing', () => {
    const report = run(
      [
        binding('a-nosubmit', 'true'),
        binding('b-missing', 'true', { workflowTemplateRef: { name: 'nope' } }),
      ],
      '{}',
    );
    expect(report.bindings.map((b) => b.outcome)).toEqual(['matched', 'error']);
    expect(report.bindings[0]!.hints).toEqual([
      'the selector matched but the binding has no spec.submit: nothing is submitted, and the server says nothing about it',
    ]);
    expect(report.bindings[1]!.hints[0]).toMatch(/^the template must exist before the event arrives/);
    expect(report.ok).toBe(false);
  });

  it("hints: sprig in a selector, string + number, a non-bool selector, Kubernetes' label rules", () => {
    const report = run(
      [
        binding('a', 'sprig.toString(payload.n) == "1"', submit()),
        binding('b', '"pr-" + payload.n == "pr-1"', submit()),
        binding('c', 'payload.ref', submit()),
        binding('d', 'true', submit({}, { labels: { version: 'payload.ref + "/x"' } })),
      ],
      '{"n":1,"ref":"main"}',
    );
    const [a, b, c, d] = report.bindings;
    expect(a!.hints[0]).toMatch(/^sprig exists only in name\/generateName\/label\/annotation expressions/);
    expect(b!.hints[0]).toMatch(/^\+ joins two strings only/);
    expect(c!.error).toContain("unable to cast expression result 'main' to bool");
    expect(c!.hints[0]).toMatch(/^the selector must give a bool, not a string/);
    expect(d!.error).toContain('failed to create workflow: Workflow.argoproj.io');
    expect(d!.error).toContain('metadata.labels: Invalid value: "main/x"');
  });

  it('reports bindings the server would not list because of the instance-id label', () => {
    const labelled = {
      ...binding('other', 'true', submit()),
      metadata: {
        name: 'other',
        namespace: 'argo',
        labels: { 'workflows.argoproj.io/controller-instanceid': 'prod' },
      },
    };
    const report = run([labelled], '{}');
    expect(only(report)).toMatchObject({ outcome: 'not listed' });
    expect(only(report).hints[0]).toContain('only a server started with --instanceid prod lists it');
  });
});
