import type { z } from 'zod'
import { nameKey } from '../naming'
import { closestNames } from '../suggest'
import type { MethodInfo } from './methodInfo'

const MAX_ISSUES = 5

export function preview(value: unknown): string {
  if (value === undefined) return 'nothing'
  let text: string
  try {
    text = JSON.stringify(value) ?? String(value)
  } catch {
    text = String(value)
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}

function valueAt(args: unknown, path: readonly PropertyKey[]): unknown {
  let current = args
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined
    current = (current as Record<PropertyKey, unknown>)[key]
  }
  return current
}

function pathText(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'arguments'
  return path
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`))
    .join('')
}

function issueText(issue: z.core.$ZodIssue, args: unknown, info: MethodInfo): string {
  const received = valueAt(args, issue.path)
  const top = issue.path.length === 1 ? info.params.find((p) => p.name === issue.path[0]) : undefined
  const expected = top?.type ?? ('expected' in issue ? String(issue.expected) : undefined)
  const about = top?.description ? ` (${top.description})` : ''
  switch (issue.code) {
    case 'invalid_type':
      if (received === undefined) return `${pathText(issue.path)}: missing, expected ${expected}${about}`
      return `${pathText(issue.path)}: expected ${expected}, received ${preview(received)}`
    case 'invalid_value':
      return `${pathText(issue.path)}: expected one of ${issue.values.map((v) => preview(v)).join(', ')}, received ${preview(received)}`
    case 'invalid_union':
      return `${pathText(issue.path)}: expected ${expected ?? 'another type'}, received ${preview(received)}`
    case 'unrecognized_keys':
      return `${pathText(issue.path)}: unknown field(s) ${issue.keys.join(', ')}`
    default:
      return `${pathText(issue.path)}: ${issue.message.replace(/^Invalid input: /, '')}, received ${preview(received)}`
  }
}

/** Fields the model sent that the method does not have, with the closest real field names. */
function unknownFields(args: Record<string, unknown>, info: MethodInfo): string[] {
  const known = info.params.map((p) => p.name)
  const knownKeys = new Set(known.map(nameKey))
  return Object.keys(args)
    .filter((key) => !knownKeys.has(nameKey(key)))
    .map((key) => {
      const close = closestNames(key, known, 1)
      return close[0] ? `${key} (did you mean ${close[0]}?)` : key
    })
}

/** A short, actionable explanation of why the arguments were refused. */
export function describeIssues(
  error: z.ZodError,
  args: Record<string, unknown>,
  info: MethodInfo,
  title: string,
  usage: string,
): string {
  const issues = error.issues.slice(0, MAX_ISSUES).map((issue) => `- ${issueText(issue, args, info)}`)
  if (error.issues.length > MAX_ISSUES) issues.push(`- and ${error.issues.length - MAX_ISSUES} more`)
  const unknown = unknownFields(args, info)
  if (unknown.length > 0) issues.push(`- unknown field(s) ignored: ${unknown.join(', ')}`)
  return [`Invalid arguments for ${title}:`, ...issues, usage].join('\n')
}
