/** Validation issues of a failed settings call, keyed by dotted path ("providers.deepseek.baseUrl"). */
export function issuesByPath(error: unknown): Record<string, string> {
  const issues = (error as { issues?: Array<{ path: Array<string | number>; message: string }> } | null)
    ?.issues
  const out: Record<string, string> = {}
  for (const issue of issues ?? []) {
    const key = issue.path.join('.')
    out[key] ??= issue.message
  }
  return out
}

/** The first issue whose path ends with one of the given suffixes (a section's own field names). */
export function issueFor(issues: Record<string, string>, field: string): string | undefined {
  for (const [path, message] of Object.entries(issues))
    if (path === field || path.endsWith(`.${field}`)) return message
  return undefined
}
