/** fnv32a, as Argo's controller uses for node ids (`<wf>-<fnv32a(nodeName)>`) and the shared agent for shards. */
export function fnv32a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}
