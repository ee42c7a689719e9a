import { readFile } from 'node:fs/promises'
import { z } from 'zod'
import { norm } from './cellText'
import type { CheckOf } from './checkSchema'
import { type CheckContext, fail } from './context'

const Entry = z.looseObject({ tool: z.string() })

/** Same value, numbers compared as numbers and text as the sheet checks compare it (case, spacing). */
function same(actual: unknown, expected: unknown): boolean {
  if (typeof expected === 'number') return Number(actual) === expected
  if (typeof expected === 'string') return norm(String(actual ?? '')) === norm(expected)
  return actual === expected
}

/** One journal line; a line that is not JSON (a server killed mid-write) is a failed check, not a crash. */
function entryOf(line: string, index: number): z.infer<typeof Entry> {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    fail(`line ${index + 1} of the MCP journal is not JSON: ${line.slice(0, 80)}`)
  }
  const entry = Entry.safeParse(value)
  if (!entry.success) fail(`line ${index + 1} of the MCP journal names no tool: ${line.slice(0, 80)}`)
  return entry.data
}

export async function checkMcpCall(check: CheckOf<'mcpCall'>, ctx: CheckContext): Promise<string> {
  if (!ctx.mcpJournal) fail('the task has no MCP server to check')
  const lines = (await readFile(ctx.mcpJournal, 'utf8')).split('\n').filter((l) => l.trim())
  const calls = lines
    .map(entryOf)
    .flatMap((entry) => (entry.tool === check.tool ? [entry as Record<string, unknown>] : []))
  const wanted = Object.entries(check.args)
  const matching = calls.filter((call) => wanted.every(([key, value]) => same(call[key], value)))
  const what = `${check.tool} with ${JSON.stringify(check.args)}`
  if (matching.length !== check.count)
    fail(
      `expected ${check.count} call(s) of ${what}, found ${matching.length} (all ${check.tool}: ${JSON.stringify(calls)})`,
    )
  if (check.only && calls.length !== matching.length)
    fail(
      `${check.tool} was also called otherwise: ${JSON.stringify(calls.filter((c) => !matching.includes(c)))}`,
    )
  return `${matching.length} × ${what}`
}
