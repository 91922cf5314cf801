// The kinds of plugin `npm run new-plugin` scaffolds: each is tools/new-plugin/templates/common plus its own
// folder there, and the parts of the manifest that differ (rendered with the scaffold's __values__).
import { createInterface } from 'node:readline/promises';
import { UsageError } from './args.js';

export type ScaffoldKind = 'http' | 'none' | 'provider';

export interface KindSpec {
  /** How the scaffold names it in its first line. */
  label: string;
  /** The flags that choose it. */
  flags: string;
  /** One line for the usage and the question. */
  what: string;
  /** The manifest's description line. */
  summary: string;
  /** The step of the manifest's description example (indented for the description). */
  exampleStep: string;
  /** The sidecar's env in plugin.yaml. */
  sidecarEnv: string;
  /** Its providers and their variables, for the collection's env. */
  providers: Array<{ key: string; variables: string[] }>;
  /**
   * Its rows of the credential-forms suite (test/reliability/credential-forms.e2e-spec.ts), which every
   * provider's secret needs: the provider table spec asks for them.
   */
  credentialRows?: string;
}

export const SCAFFOLD_KINDS: Record<ScaffoldKind, KindSpec> = {
  http: {
    label: 'an HTTP upstream with a bearer token',
    flags: '--upstream http',
    what: 'calls one HTTP upstream with a bearer token: env class, Secret, client, stand-in, side-effect counter',
    summary: 'Posts a message to an endpoint the administrator configures, once per execution.',
    exampleStep: `      - name: notify
        plugin:
          __key__:
            message: "{{workflow.name}} finished"
`,
    sidecarEnv: `      env:
        - name: __ENV___URL
          value: https://example.com/api
        - name: __ENV___TOKEN
          valueFrom:
            secretKeyRef:
              name: __name__-executor-plugin
              key: token
`,
    providers: [],
  },
  none: {
    label: 'no upstream',
    flags: '--upstream none',
    what: 'pure compute, parameters in and outputs out: no env class, Secret, client or stand-in',
    summary: 'Counts the words of a text: parameters in, outputs out.',
    exampleStep: `      - name: __key__
        plugin:
          __key__:
            text: "{{workflow.name}} says hello"
`,
    // No admin setting of its own: the kit's log level is the one entry (the collection's env is made from it).
    sidecarEnv: `      env:
        - name: LOG_LEVEL
          value: info
`,
    providers: [],
  },
  provider: {
    label: 'providers',
    flags: '--provider',
    what: 'upstream services of one kind in the one provider shape: a provider table, one example provider and its stand-in',
    summary: "Hands the body's one provider block to that provider, once per execution.",
    exampleStep: `      - name: post
        plugin:
          __key__:
            example:
              message: "{{workflow.name}} finished"
`,
    sidecarEnv: `      env:
        - name: EXAMPLE_URL
          value: https://api.example.com
        - name: EXAMPLE_TOKEN
          valueFrom:
            secretKeyRef:
              name: __name__-executor-plugin
              key: example-token
`,
    providers: [{ key: 'example', variables: ['EXAMPLE_URL', 'EXAMPLE_TOKEN'] }],
    credentialRows: `  {
    credential: 'EXAMPLE_TOKEN (__name__)',
    how: 'Authorization: Bearer',
    key: '__key__',
    body: { example: { message: 'deployed' } },
    sent: (e) => [e.EXAMPLE_TOKEN],
    secret: (e) => e.EXAMPLE_TOKEN,
  },
`,
  },
};

export const KIND_USAGE = Object.values(SCAFFOLD_KINDS)
  .map((k) => `  ${k.flags.padEnd(17)} ${k.what}`)
  .join('\n');

const KIND_LINE = `say which kind of plugin: ${Object.values(SCAFFOLD_KINDS)
  .map((k) => `${k.flags} (${k.label})`)
  .join(', ')}`;

/** The kind the flags give; without one, asked on a terminal, else a one-line usage error naming the flags. */
export async function chooseKind(upstream: string | undefined, provider: boolean): Promise<ScaffoldKind> {
  if (upstream !== undefined && provider)
    throw new UsageError('--upstream and --provider are two kinds of plugin: give one');
  if (provider) return 'provider';
  if (upstream !== undefined) return upstream as ScaffoldKind;
  if (!process.stdin.isTTY || !process.stdout.isTTY) throw new UsageError(KIND_LINE);
  const kinds = Object.keys(SCAFFOLD_KINDS) as ScaffoldKind[];
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const question = kinds.map((k, i) => `  ${i + 1}. ${SCAFFOLD_KINDS[k].flags}: ${SCAFFOLD_KINDS[k].what}`);
    const answer = (await rl.question(`which kind of plugin?\n${question.join('\n')}\n> `)).trim();
    const chosen = kinds[Number(answer) - 1] ?? kinds.find((k) => SCAFFOLD_KINDS[k].flags.endsWith(answer));
    if (!chosen) throw new UsageError(`'${answer}' is not one of the kinds: ${KIND_LINE}`);
    return chosen;
  } finally {
    rl.close();
  }
}
