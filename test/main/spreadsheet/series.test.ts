import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Harness, harnessWithSheet } from './harness'

let h: Harness
const P = '/series.xlsx'
const at = { path: P, sheet: 'Data' }
beforeAll(async () => {
  h = await harnessWithSheet(P, 'Data', [
    [10, 2, null, null, null, '2024-01-31', '2024-03-01', '2023-02-28', 0],
    [null, null, null, null, null, null, null, null, null],
  ])
  await h.call('set_range', {
    ...at,
    start: 'K1',
    values: [
      ["'1,200", "'2024-03-01", 5],
      ["'$5", '1 March 2024', '2024-05-06'],
      ["'12%", 'soon', 'x'],
      ['n/a', null, null],
      ["' 42 ", null, null],
      ["'00123", null, null],
      [7, null, null],
      ['=K7*2', null, null],
    ],
  })
})
afterAll(async () => h.cleanup())

describe('fill_series', () => {
  it('linear, growth, dates by month (cut to the month end), weekday and year; stop ends early', async () => {
    expect(await h.call('fill_series', { ...at, range: 'A1:A5', step: 5 })).toMatchObject({
      values: [['10'], ['15'], ['20'], ['25'], ['30']],
    })
    expect(
      await h.call('fill_series', { ...at, range: 'B1:E1', type: 'growth', step: 3, direction: 'right' }),
    ).toMatchObject({
      values: [['2', '6', '18', '54']],
    })
    expect(
      await h.call('fill_series', { ...at, range: 'F1:F5', type: 'date', date_unit: 'month' }),
    ).toMatchObject({
      values: [['2024-01-31'], ['2024-02-29'], ['2024-03-31'], ['2024-04-30'], ['2024-05-31']],
      types: { F1: 'date', F2: 'date', F5: 'date' },
    })
    expect(
      await h.call('fill_series', { ...at, range: 'G1:G4', type: 'date', date_unit: 'weekday' }),
    ).toMatchObject({
      values: [['2024-03-01'], ['2024-03-04'], ['2024-03-05'], ['2024-03-06']],
    })
    expect(
      await h.call('fill_series', { ...at, range: 'H1:H3', type: 'date', date_unit: 'year' }),
    ).toMatchObject({
      values: [['2023-02-28'], ['2024-02-28'], ['2025-02-28']],
    })
    expect(await h.call('fill_series', { ...at, range: 'I1:I5', step: 10, stop: 25 })).toMatchObject({
      values: [['0'], ['10'], ['20'], [''], ['']],
    })
  })

  it('refuses a start that is not a number or date, and a one-cell range; nothing changes', async () => {
    expect(await h.fail('fill_series', { ...at, range: 'J1:J4' })).toMatch(
      /J1 starts the series but holds nothing/,
    )
    expect(await h.fail('fill_series', { ...at, range: 'A1:J4', direction: 'down' })).toMatch(
      /J1 starts the series/,
    )
    expect(await h.fail('fill_series', { ...at, range: 'A1:A3', type: 'date' })).toMatch(
      /holds a number, not a date/,
    )
    expect(await h.fail('fill_series', { ...at, range: 'A1:C1', direction: 'down' })).toMatch(/has one row/)
    expect(await h.fail('fill_series', { ...at, range: 'A1:A3', type: 'growth', step: 0 })).toMatch(
      /step other than 0/,
    )
    expect(await h.call('get_range', { ...at, range: 'A1:B5' })).toMatchObject({
      values: [
        ['10', '2'],
        ['15', ''],
        ['20', ''],
        ['25', ''],
        ['30', ''],
      ],
    })
  })
})

describe('convert_types', () => {
  it('text to numbers with their format; lists what stays and why', async () => {
    const r = await h.call('convert_types', { ...at, range: 'K1:K8', to: 'number' })
    expect(r).toMatchObject({
      values: [['1,200'], ['$5'], ['12%'], ['n/a'], ['42'], ['123'], ['7'], ['14']],
      formats: { K1: '#,##0', K2: '$#,##0', K3: '0%' },
      types: { K4: 'text' },
      formulas: { K8: '=K7*2' },
      converted: 5,
      kept: [
        { cell: 'K4', value: 'n/a', why: 'does not read as a number' },
        { cell: 'K8', value: '14', why: 'a formula' },
      ],
    })
  })

  it('text to dates, and numbers and dates to text', async () => {
    const dates = await h.call('convert_types', { ...at, range: 'L1:L3', to: 'date' })
    expect(dates).toMatchObject({
      converted: 2,
      kept: [{ cell: 'L3', value: 'soon', why: 'does not read as a date' }],
      types: { L1: 'date', L2: 'date', L3: 'text' },
    })
    expect((dates as { values: string[][] }).values[1]).toEqual(['1 March 2024'])
    const text = await h.call('convert_types', { ...at, range: 'M1:M3', to: 'text' })
    expect(text).toMatchObject({
      values: [['5'], ['2024-05-06'], ['x']],
      types: { M1: 'text', M2: 'text', M3: 'text' },
      formats: { M1: '@', M2: '@' },
      converted: 2,
      kept: [],
    })
    await h.call('save', { path: P })
    await h.newSession()
    expect(await h.call('get_range', { ...at, range: 'K1:M2', detailed: true })).toMatchObject({
      types: { L1: 'date', L2: 'date', M1: 'text', M2: 'text' },
      formats: { K1: '#,##0' },
    })
  })
})
