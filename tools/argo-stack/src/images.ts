// What the pod runner runs for a container image, in place of pulling it: our plugin images are the built
// bundles (dist/apps/<app>, mounted at /app as the image has it), the real-Argo suite's test images are its
// own bundles (dist/test/<name>, built by the suite's setup), the executor image is the argoexec built from
// the pinned module, a python image is this machine's Python; any other image runs its command on this
// machine's own tools (e.g. `sh -c …` of an alpine step).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

/** The image the stack's controller puts into agent and workflow pods (`--executor-image`). */
export const EXECUTOR_IMAGE = 'quay.io/argoproj/argoexec:stack';

/** What our Dockerfile builds for an app: `ghcr.io/<owner>/executor-plugins/<app>:<tag>`. */
const OUR_IMAGE = /^ghcr\.io\/[^/]+\/executor-plugins\/([a-z0-9-]+)(?::[\w.-]+)?$/;

/** A test image of the real-Argo suite (test/argo), e.g. its scripted plugin: `executor-plugins.test/<name>`. */
const TEST_IMAGE = /^executor-plugins\.test\/([a-z0-9-]+)(?::[\w.-]+)?$/;

export interface ImageRoot {
  /** Folders put first on PATH. */
  path: string[];
  /** Host folder → mount point in the container. */
  mounts: Array<{ source: string; target: string }>;
  env: Record<string, string>;
  workingDir: string;
  entrypoint: string[];
}

export interface ImageTable {
  /** Where `dist/apps/<app>` lives. */
  repoRoot: string;
  /** Folder holding argoexec. */
  argoBin: string;
  /** Folder for the runner's own shims (python). */
  shimDir: string;
}

export function resolveImage(image: string, table: ImageTable): ImageRoot | string {
  const ours = OUR_IMAGE.exec(image);
  if (ours) return nodeBundle(image, join(table.repoRoot, 'dist/apps', ours[1]), 'npm run build');
  const test = TEST_IMAGE.exec(image);
  if (test) return nodeBundle(image, join(table.repoRoot, 'dist/test', test[1]), 'npm run test:argo');
  if (image === EXECUTOR_IMAGE) {
    return { path: [table.argoBin], mounts: [], env: {}, workingDir: '/', entrypoint: ['argoexec'] };
  }
  if (/^(docker\.io\/)?(library\/)?python(:|$)/.test(image)) {
    return {
      path: [pythonShims(table.shimDir)],
      mounts: [],
      env: {},
      workingDir: '/',
      entrypoint: ['python3'],
    };
  }
  return { path: [], mounts: [], env: {}, workingDir: '/', entrypoint: [] };
}

/** A bundle run as `node /app/main.js`, the folder mounted at /app as the image has it. */
function nodeBundle(image: string, bundle: string, builtBy: string): ImageRoot | string {
  if (!existsSync(join(bundle, 'main.js')))
    return `no bundle for ${image}: run ${builtBy} (${bundle}/main.js)`;
  return {
    path: [],
    mounts: [{ source: bundle, target: '/app' }],
    env: { NODE_ENV: 'production' },
    workingDir: '/app',
    entrypoint: ['node', '/app/main.js'],
  };
}

/** `python` and `python3` pointing at this machine's interpreter, whatever shims its PATH has. */
function pythonShims(shimDir: string): string {
  const dir = join(shimDir, 'python');
  if (!existsSync(join(dir, 'python'))) {
    const exe = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], {
      encoding: 'utf8',
    }).trim();
    mkdirSync(dir, { recursive: true });
    for (const name of ['python', 'python3'])
      if (!existsSync(join(dir, name))) symlinkSync(exe, join(dir, name));
  }
  return dir;
}
