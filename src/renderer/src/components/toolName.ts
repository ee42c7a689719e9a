/**
 * A tool as every screen names it (approval card, step timeline, Settings → Approvals): the name the
 * model calls, `files.write_text`. Rules and approval requests key methods as declared (`writeText`).
 */
export function toolName(toolset: string, method: string): string {
  const snake = method
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
  return `${toolset}.${snake}`
}

/** A rule key (`files` or `files.writeText`) in the same spelling. */
export function ruleName(key: string): string {
  const dot = key.indexOf('.')
  return dot < 0 ? key : toolName(key.slice(0, dot), key.slice(dot + 1))
}
