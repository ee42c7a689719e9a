import { describe, expect, it } from 'vitest'
import { changedAt, receiptChanges } from '../../../src/renderer/src/preview/receiptChanges'
import type { AgentStep } from '../../../src/shared/ipc'

const step = (
  method: string,
  args: unknown,
  result: unknown,
  status: AgentStep['status'] = 'ok',
): AgentStep => ({
  id: `${method}-${Math.random()}`,
  method,
  args,
  result,
  status,
  startedAt: '2026-01-01T00:00:00Z',
})

describe('receipt changes', () => {
  const steps = [
    step(
      'spreadsheet.set_range',
      { path: '/inbox/a.xlsx', sheet: 'Sales' },
      { sheet: 'Sales', range: 'D1:D3', values: [['x'], [1], [2]] },
    ),
    step(
      'spreadsheet.set_cell_formula',
      { path: 'inbox/a.xlsx' },
      { sheet: 'Sales', range: 'Sales!C6', values: [[5]], formulas: { C6: '=SUM(C2:C5)' } },
    ),
    step(
      'spreadsheet.format_range',
      { path: '/inbox/a.xlsx' },
      { sheet: 'Staff', range: 'A1:B1', applied: ['bold'] },
    ),
    step('spreadsheet.set_range', { path: '/other.xlsx' }, { sheet: 'Sales', range: 'A1', values: [[1]] }),
    step(
      'spreadsheet.set_range',
      { path: '/inbox/a.xlsx' },
      { sheet: 'Sales', range: 'Z9', values: [[1]] },
      'error',
    ),
    step('files.read', { path: '/inbox/a.xlsx' }, { text: 'not a receipt' }),
  ]

  it('takes each successful receipt of the file as a rectangle with what it did', () => {
    const changes = receiptChanges(steps, '/inbox/a.xlsx')
    expect(changes.map((c) => `${c.sheet}!${c.range} ${c.what}`)).toEqual([
      'Sales!D1:D3 written',
      'Sales!C6 formula',
      'Staff!A1:B1 formatted: bold',
    ])
    expect(changes[0]).toMatchObject({ top: 1, bottom: 3, left: 4, right: 4 })
  })

  it('marks exactly the cells inside the rectangles of the sheet', () => {
    const changes = receiptChanges(steps, '/inbox/a.xlsx')
    expect(changedAt(changes, 'Sales', 2, 4)).toBe(true)
    expect(changedAt(changes, 'Sales', 4, 4)).toBe(false)
    expect(changedAt(changes, 'Sales', 6, 3)).toBe(true)
    expect(changedAt(changes, 'Staff', 6, 3)).toBe(false)
    expect(changedAt(changes, 'Staff', 1, 2)).toBe(true)
    expect(receiptChanges(steps, '/nothing.xlsx')).toEqual([])
  })
})
