import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { describe, expect, it } from 'vitest'
import { MEMORY_HEADER, selectMemories } from '../../../src/main/memory'
import { INVOICE_FOLDER_MEMORY, memoryFileOf, officeMemories } from './memoryFixtures'

describe('choosing memories for a request', () => {
  it('with 500 memories, a question about invoices gets the invoice-folder memory within 300 tokens', async () => {
    const file = memoryFileOf(officeMemories(500))
    const selection = await selectMemories(file, { query: 'Where do I save the invoice from Schmidt AG?' })
    expect(selection.used.map((m) => m.text)).toContain(INVOICE_FOLDER_MEMORY)
    expect(selection.block.startsWith(MEMORY_HEADER.trimEnd().slice(0, 20))).toBe(true)
    expect(countTokens(selection.block)).toBe(selection.tokens)
    expect(selection.tokens).toBeLessThanOrEqual(300)
    expect(selection.used.length).toBeLessThan(500)
    // Same file and request: the same bytes (the prompt prefix stays cache-stable).
    const again = await selectMemories(file, { query: 'Where do I save the invoice from Schmidt AG?' })
    expect(again.block).toBe(selection.block)
  })

  it('a smaller budget is kept, and a request matching nothing adds nothing from a large store', async () => {
    const file = memoryFileOf(officeMemories(500))
    const small = await selectMemories(file, { query: 'invoice numbers for Müller GmbH', budgetTokens: 80 })
    expect(small.tokens).toBeLessThanOrEqual(80)
    expect(small.used.length).toBeGreaterThan(0)
    expect(await selectMemories(file, { query: 'xylophone quantum' })).toMatchObject({ block: '', used: [] })
  })

  it('a small store that fits the budget is given whole, matches first', async () => {
    const file = memoryFileOf([
      'My name is Jan Berger',
      'Anna means anna.berg@firma.de',
      'Dates as 31.12.2025',
    ])
    const selection = await selectMemories(file, { query: 'write a mail to Anna' })
    expect(selection.used.map((m) => m.text)).toEqual([
      'Anna means anna.berg@firma.de',
      'My name is Jan Berger',
      'Dates as 31.12.2025',
    ])
  })

  it('uses nothing when paused or when the memory belongs to another workspace', async () => {
    const paused = {
      ...memoryFileOf(['Invoices go to /finance']),
      preferences: { paused: true, saveWithoutAsking: false, budgetTokens: 300 },
    }
    expect((await selectMemories(paused, { query: 'invoices' })).used).toEqual([])
    const scoped = memoryFileOf(
      ['Invoices go to /finance'],
      [{ scope: { kind: 'workspace', folder: '/work/a' } }],
    )
    expect((await selectMemories(scoped, { query: 'invoices', workspace: '/work/b' })).used).toEqual([])
    expect((await selectMemories(scoped, { query: 'invoices' })).used).toEqual([])
    expect((await selectMemories(scoped, { query: 'invoices', workspace: '/work/a' })).used).toHaveLength(1)
  })
})
