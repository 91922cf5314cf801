/**
 * A small part of Slack's Block Kit validation: enough that a malformed block is refused the way Slack
 * refuses it (`invalid_blocks` with `[json-pointer:...]` details), so the plugin's error path is exercised.
 */
const KNOWN_TYPES = new Set([
  'section',
  'context',
  'header',
  'divider',
  'image',
  'actions',
  'input',
  'rich_text',
  'markdown',
  'file',
  'video',
  'table',
]);
const TEXT_TYPES = new Set(['mrkdwn', 'plain_text']);

export function blockProblems(blocks: unknown, pointer: string): string[] {
  if (!Array.isArray(blocks)) return [`must provide an array [json-pointer:${pointer}]`];
  if (blocks.length > 50)
    return [`must provide an array with no more than 50 items [json-pointer:${pointer}]`];
  const problems: string[] = [];
  blocks.forEach((block, i) => {
    const at = `${pointer}/${i}`;
    if (!block || typeof block !== 'object' || Array.isArray(block)) {
      problems.push(`must provide an object [json-pointer:${at}]`);
      return;
    }
    const b = block as Record<string, unknown>;
    if (typeof b.type !== 'string' || !KNOWN_TYPES.has(b.type)) {
      problems.push(`unsupported type: ${String(b.type)} [json-pointer:${at}/type]`);
      return;
    }
    switch (b.type) {
      case 'section':
        if (b.text === undefined && b.fields === undefined)
          problems.push(`must provide either text or fields [json-pointer:${at}]`);
        if (b.text !== undefined) problems.push(...textProblems(b.text, `${at}/text`, 3000));
        break;
      case 'header':
        problems.push(...textProblems(b.text, `${at}/text`, 150, 'plain_text'));
        break;
      case 'context':
        if (!Array.isArray(b.elements) || b.elements.length === 0 || b.elements.length > 10) {
          problems.push(`must provide an array of 1 to 10 elements [json-pointer:${at}/elements]`);
        }
        break;
    }
  });
  return problems;
}

function textProblems(text: unknown, at: string, max: number, only?: string): string[] {
  if (!text || typeof text !== 'object') return [`must provide an object [json-pointer:${at}]`];
  const t = text as Record<string, unknown>;
  if (typeof t.type !== 'string' || !TEXT_TYPES.has(t.type) || (only && t.type !== only)) {
    return [`must be a valid enum value [json-pointer:${at}/type]`];
  }
  if (typeof t.text !== 'string' || t.text.length === 0)
    return [`must be more than 0 characters [json-pointer:${at}/text]`];
  if (t.text.length > max) return [`must be less than ${max + 1} characters [json-pointer:${at}/text]`];
  return [];
}
