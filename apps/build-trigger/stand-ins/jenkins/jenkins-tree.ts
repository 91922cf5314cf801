/**
 * Jenkins' `tree=` filter of the remote API: `a,b[c,d]{0,50},e[f[g]]`. Only the named fields come back
 * (plus `_class`), `{m,n}` slices lists. The stand-in applies it, so the plugin gets only what it asked for.
 */
interface TreeNode {
  name: string;
  children?: TreeNode[];
  range?: [number, number | undefined];
}

export function parseTree(text: string): TreeNode[] {
  let i = 0;
  const list = (): TreeNode[] => {
    const nodes: TreeNode[] = [];
    for (;;) {
      let name = '';
      while (i < text.length && !'[]{},'.includes(text[i])) name += text[i++];
      const node: TreeNode = { name: name.trim() };
      if (text[i] === '[') {
        i++;
        node.children = list();
        if (text[i++] !== ']') throw new Error(`tree: missing ] in ${text}`);
      }
      if (text[i] === '{') {
        const end = text.indexOf('}', i);
        if (end < 0) throw new Error(`tree: missing } in ${text}`);
        const [from, to] = text.slice(i + 1, end).split(',');
        node.range =
          to === undefined
            ? [Number(from), Number(from) + 1]
            : [Number(from || 0), to === '' ? undefined : Number(to)];
        i = end + 1;
      }
      if (node.name) nodes.push(node);
      if (text[i] !== ',') return nodes;
      i++;
    }
  };
  const nodes = list();
  if (i < text.length) throw new Error(`tree: unexpected ${text[i]} in ${text}`);
  return nodes;
}

export function applyTree(value: unknown, nodes: TreeNode[]): unknown {
  if (Array.isArray(value)) return value.map((v) => applyTree(v, nodes));
  if (value === null || typeof value !== 'object') return value;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if ('_class' in source) out._class = source._class;
  for (const node of nodes) {
    // The names come from the request's tree= parameter: own fields only (`tree=constructor` finds nothing).
    if (!Object.hasOwn(source, node.name)) continue;
    let v = source[node.name];
    if (node.range && Array.isArray(v)) v = v.slice(node.range[0], node.range[1]);
    out[node.name] = node.children ? applyTree(v, node.children) : v;
  }
  return out;
}

/** The object filtered by a `tree` query parameter, or as is without one. */
export function filterTree(value: unknown, tree: string | null): unknown {
  return tree ? applyTree(value, parseTree(tree)) : value;
}
