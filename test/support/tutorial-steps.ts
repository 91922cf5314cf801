// The steps of docs/write-a-plugin.md, read from the page itself: the commands of its ```sh blocks and the
// patches of its ```diff blocks whose fence is marked `tutorial` (the walk in the copy of a checkout) or
// `tutorial-stack` (the real stack), in the order of the page. The tests that follow the tutorial run these and
// nothing else, so a wrong step on the page fails them; the docs-commands test reads the blocks the same way.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const TUTORIAL = 'docs/write-a-plugin.md';

/** A fenced block of a page. */
export interface DocBlock {
  /** `docs/write-a-plugin.md:45`: the line of its first content line. */
  where: string;
  /** The fence's language: `sh`, `diff`, `ts`... */
  lang: string;
  /** The word after the language: `tutorial`, `tutorial-stack`, or '' for an unmarked block. */
  mark: string;
  /** Its lines, between the fences. */
  lines: string[];
  /** The page's line number of each of `lines`. */
  lineNumbers: number[];
}

/** Every fenced block of `file` (a path in the repository at `root`). */
export function docBlocks(root: string, file: string): DocBlock[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const blocks: DocBlock[] = [];
  let open: DocBlock | undefined;
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```(\w*)(?:\s+([\w-]+))?\s*$/.exec(lines[i]);
    if (fence && !open) {
      open = { where: `${file}:${i + 2}`, lang: fence[1], mark: fence[2] ?? '', lines: [], lineNumbers: [] };
    } else if (fence && open) {
      blocks.push(open);
      open = undefined;
    } else if (open) {
      open.lines.push(lines[i]);
      open.lineNumbers.push(i + 1);
    }
  }
  return blocks;
}

/** The commands of an sh block: continuation lines joined, `# comment` lines and trailing comments dropped. */
export function blockCommands(block: DocBlock, file: string): Array<{ where: string; command: string }> {
  const out: Array<{ where: string; command: string }> = [];
  const { lines } = block;
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].trim() || lines[i].trim().startsWith('#')) continue;
    const start = block.lineNumbers[i];
    let command = lines[i];
    while (command.endsWith('\\') && i + 1 < lines.length)
      command = `${command.slice(0, -1)}${lines[++i].trim()}`;
    out.push({ where: `${file}:${start}`, command: command.replace(/\s+#\s.*$/, '').trim() });
  }
  return out;
}

export type TutorialStep =
  | { where: string; stage: 'walk' | 'stack'; run: string }
  | { where: string; stage: 'walk' | 'stack'; patch: string };

/** The marked steps of the tutorial, in the order of the page. */
export function tutorialSteps(root: string): TutorialStep[] {
  return docBlocks(root, TUTORIAL).flatMap((block): TutorialStep[] => {
    if (block.mark !== 'tutorial' && block.mark !== 'tutorial-stack') return [];
    const stage = block.mark === 'tutorial' ? 'walk' : 'stack';
    if (block.lang === 'diff') return [{ where: block.where, stage, patch: `${block.lines.join('\n')}\n` }];
    if (block.lang === 'sh')
      return blockCommands(block, TUTORIAL).map(({ where, command }) => ({ where, stage, run: command }));
    throw new Error(
      `${block.where}: a ${block.lang} block marked ${block.mark} (only sh and diff are steps)`,
    );
  });
}

/** The page's placeholders in the walk's commands, as the tests fill them in. */
export function fillPlaceholders(command: string, values: { version: string; owner: string }): string {
  return command.replaceAll('<version>', values.version).replaceAll('<you>', values.owner);
}
