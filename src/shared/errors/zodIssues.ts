import type { z } from 'zod'
import type { ValidationIssue } from './appError'

/** A Zod error's issues in the wire shape of `ValidationIssue` (symbol keys as strings). */
export function toIssues(error: z.ZodError): ValidationIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
    message: issue.message,
    code: issue.code,
  }))
}
