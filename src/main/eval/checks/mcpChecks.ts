import { readFile } from 'node:fs/promises'
import { z } from 'zod'
import type { CheckOf } from './checkSchema'
import { type CheckContext, fail } from './context'

const Entry = z.looseObject({ tool: z.string() })

/** Same value, numbers compared as numbers and text without case or surrounding space. */
function same(actual: unknown, expected: unknown): boolean {
  if (typeof expected === 'number') return Number(actual) === expected
  if (typeof expected === 'string')
    return (
      String(actual ?? '')
        .trim()
        .toLowerCase() === expected.toLowerCase()
    )
  return actual === expected
}

export async function checkMcpCall(check: CheckOf<'mcpCall'>, ctx: CheckContext): Promise<string> {
  if (!ctx.mcpJournal) fail('the task has no MCP server to check')
  const lines = (await readFile(ctx.mcpJournal, 'utf8')).split('\n').filter((l) => l.trim())
  const calls = lines
    .map((line) => Entry.safeParse(JSON.parse(line)))
    .flatMap((r) => (r.success && r.data.tool === check.tool ? [r.data as Record<string, unknown>] : []))
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
