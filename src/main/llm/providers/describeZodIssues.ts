import type { z } from 'zod'

/** `entry 2 (deepseek), baseUrl: an http:// or https:// URL`: short enough for a notice. */
export function describeZodIssues(error: z.ZodError, entries: unknown, limit = 3): string {
  const parts = error.issues.slice(0, limit).map((issue) => {
    const [index, ...rest] = issue.path
    const entry = typeof index === 'number' ? entryLabel(entries, index) : 'the file'
    const field = rest.length > 0 ? `${rest.join('.')}: ` : ''
    return `${entry}, ${field}${issue.message}`
  })
  const more = error.issues.length > limit ? ` (and ${error.issues.length - limit} more)` : ''
  return `${parts.join('; ')}${more}`
}

function entryLabel(entries: unknown, index: number): string {
  const entry = Array.isArray(entries) ? (entries[index] as { id?: unknown } | undefined) : undefined
  const id = typeof entry?.id === 'string' ? ` (${entry.id})` : ''
  return `entry ${index + 1}${id}`
}
