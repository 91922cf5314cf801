// The part of JQL the stand-in answers (https://support.atlassian.com/jira-software-cloud/docs/use-advanced-search-with-jira-query-language-jql/):
// `field = value` clauses joined by AND, over project, labels, creator, key, status, then ORDER BY created.
// Anything else is Jira's 400 for a query it cannot parse.

export interface JqlQuery {
  clauses: Array<{ field: string; value: string }>;
  order: 'ASC' | 'DESC';
}

const FIELDS = new Set(['project', 'labels', 'creator', 'key', 'status']);
const CLAUSE = /^(\w+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([\w.:-]+\(\)|[\w.:-]+))$/;

/** The query, or the reason Jira gives for refusing it. */
export function parseJql(jql: string): JqlQuery | string {
  const [where, orderBy] = jql.split(/\s+ORDER\s+BY\s+/i);
  let order: JqlQuery['order'] = 'DESC';
  if (orderBy !== undefined) {
    const sort = /^created(?:\s+(ASC|DESC))?$/i.exec(orderBy.trim());
    if (!sort) return `Error in the JQL Query: the stand-in orders by created only ('${orderBy.trim()}').`;
    order = (sort[1]?.toUpperCase() as JqlQuery['order']) ?? 'ASC';
  }
  if (!where || where.trim() === '')
    return 'Unbounded JQL queries are not allowed here. Please add a search restriction to your query.';
  const clauses: JqlQuery['clauses'] = [];
  for (const part of where.trim().split(/\s+AND\s+/i)) {
    const [, field, quoted, bare] = CLAUSE.exec(part.trim()) ?? [];
    if (!field) return `Error in the JQL Query: Expecting operator but got '${part.trim()}'.`;
    if (!FIELDS.has(field.toLowerCase()))
      return `Field '${field}' does not exist or you do not have permission to view it.`;
    clauses.push({
      field: field.toLowerCase(),
      value: quoted !== undefined ? quoted.replace(/\\(.)/g, '$1') : bare!,
    });
  }
  return { clauses, order };
}
