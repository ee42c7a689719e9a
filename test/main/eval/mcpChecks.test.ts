import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { CheckContext } from '../../../src/main/eval/checks/context'
import { checkMcpCall } from '../../../src/main/eval/checks/mcpChecks'

const dir = await mkdtemp(join(tmpdir(), 'bureau-mcp-check-'))
afterAll(() => rm(dir, { recursive: true, force: true }))

async function contextWith(journal: string): Promise<CheckContext> {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.jsonl`)
  await writeFile(file, journal)
  return { root: dir, answer: '', submissions: [], reader: {} as never, mcpJournal: file }
}

const check = {
  type: 'mcpCall' as const,
  tool: 'reserve',
  args: { sku: 'AB-1', qty: 2 },
  count: 1,
  only: true,
}

describe('the mcpCall check', () => {
  it('matches a call by its arguments, text without case or spacing, numbers as numbers', async () => {
    const ctx = await contextWith(`${JSON.stringify({ tool: 'reserve', sku: ' ab-1 ', qty: '2' })}\n`)
    await expect(checkMcpCall(check, ctx)).resolves.toContain('1 × reserve')
  })

  it('a journal line that is not JSON fails the check with its line number, not with a crash', async () => {
    const ctx = await contextWith(
      `${JSON.stringify({ tool: 'reserve', sku: 'AB-1', qty: 2 })}\n{"tool": "res`,
    )
    await expect(checkMcpCall(check, ctx)).rejects.toThrow('line 2 of the MCP journal is not JSON')
  })
})
