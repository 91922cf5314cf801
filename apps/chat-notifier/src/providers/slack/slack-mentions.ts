/** Slack's mention syntax: `<@U…>` users, `<!subteam^S…>` user groups, `<!here>`, `<!channel>`. */
export function renderMention(id: string): string {
  if (id === 'here' || id === 'channel') return `<!${id}>`;
  if (id.startsWith('S')) return `<!subteam^${id}>`;
  return `<@${id}>`;
}

export function renderMentions(ids: readonly string[] | undefined): string {
  return [...new Set(ids ?? [])].map(renderMention).join(' ');
}
