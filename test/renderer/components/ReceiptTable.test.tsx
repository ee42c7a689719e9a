// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { columnName, parseCell } from '../../../src/renderer/src/components/areaReceipt'
import { ReceiptTable } from '../../../src/renderer/src/components/ReceiptTable'
import { StepTimeline } from '../../../src/renderer/src/components/StepTimeline'
import type { AgentStep } from '../../../src/shared/ipc'

const receipt = {
  sheet: 'Sales',
  range: 'B3:D4',
  rows: 2,
  columns: 3,
  values: [
    ['Region', 'Q1', 'Total'],
    ['North', 120, '1,240.50'],
  ],
  formulas: { D4: '=SUM(C4:C9)' },
}

describe('ReceiptTable', () => {
  afterEach(cleanup)

  it('labels columns and rows from the range start and shows display values', () => {
    render(<ReceiptTable receipt={receipt} />)
    const table = screen.getByRole('table')
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent)
    expect(headers).toEqual(['B', 'C', 'D'])
    const rows = within(table)
      .getAllByRole('rowheader')
      .map((h) => h.textContent)
    expect(rows).toEqual(['3', '4'])
    expect(table.querySelector('[data-cell="B3"]')?.textContent).toBe('Region')
    expect(table.querySelector('[data-cell="C4"]')?.textContent).toBe('120')
    const total = table.querySelector('[data-cell="D4"]')
    expect(total?.textContent).toBe('1,240.50')
    expect(total?.getAttribute('title')).toBe('D4: =SUM(C4:C9)')
    expect(total?.className).toContain('has-formula')
    expect(screen.getByText('Sales')).toBeTruthy()
  })

  it('caps big receipts and says how much is hidden', () => {
    const values = Array.from({ length: 25 }, (_, r) => Array.from({ length: 14 }, (_, c) => r * c))
    render(<ReceiptTable receipt={{ sheet: 'S', range: 'A1:N25', values }} />)
    expect(screen.getAllByRole('rowheader')).toHaveLength(20)
    expect(screen.getByText('5 more rows, 2 more columns')).toBeTruthy()
  })

  it('appears in the step timeline for a spreadsheet step', () => {
    const step: AgentStep = {
      id: 's1',
      method: 'spreadsheet.set_range',
      args: { path: '/inbox/sales.xlsx', sheet: 'Sales', start: 'B3' },
      status: 'ok',
      result: receipt,
      startedAt: '2025-01-01T00:00:00.000Z',
      durationMs: 1530,
    }
    render(<StepTimeline steps={[step]} running={false} />)
    expect(screen.getByText('1 step')).toBeTruthy()
    expect(screen.getByText('spreadsheet.set_range')).toBeTruthy()
    expect(screen.getByText('1.5 s')).toBeTruthy()
    expect(screen.getByRole('table')).toBeTruthy()
  })
})

describe('A1 helpers', () => {
  it('converts column indexes and cell references', () => {
    expect([0, 25, 26, 701, 702].map(columnName)).toEqual(['A', 'Z', 'AA', 'ZZ', 'AAA'])
    expect(parseCell('$AB$12')).toEqual({ column: 27, row: 12 })
    expect(parseCell('nope')).toBeUndefined()
  })
})
