/** Replaces `{{name}}` in every string of a JSON-like value. */
export function fillTemplate<T>(value: T, vars: Readonly<Record<string, string>>): T {
  const fill = (v: unknown): unknown => {
    if (typeof v === 'string') return v.replace(/\{\{(\w+)\}\}/g, (m, name: string) => vars[name] ?? m)
    if (Array.isArray(v)) return v.map(fill)
    // Plain objects only: a task's files held in memory (a Map of byte arrays) pass through as they are.
    if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype)
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x)]))
    return v
  }
  return fill(value) as T
}

/**
 * In a replayed call, a string `$ref:<n>:<path>` is the value at `path` (dots, array indexes) of the
 * result of the solution's call n (0-based): ids a tool hands out, such as history versions.
 */
export function resolveRefs(
  args: Record<string, unknown>,
  results: readonly unknown[],
): Record<string, unknown> {
  const resolve = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const m = /^\$ref:(\d+):(.+)$/.exec(v)
      if (!m) return v
      let at: unknown = results[Number(m[1])]
      for (const key of (m[2] as string).split('.')) at = (at as Record<string, unknown> | undefined)?.[key]
      return at
    }
    if (Array.isArray(v)) return v.map(resolve)
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolve(x)]))
    return v
  }
  return resolve(args) as Record<string, unknown>
}
