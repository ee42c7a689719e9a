import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from './harness'

let h: Harness
const P = '/book.xlsx'
beforeEach(async () => {
  h = await createHarness()
  await h.call('create', { path: P, sheet: 'Sales' })
})
afterEach(async () => h.cleanup())

describe('writing cells returns the area receipt', () => {
  it('set_range: display values, formulas, types and formats, cell by cell', async () => {
    const receipt = await h.call('set_range', {
      path: P,
      sheet: 'Sales',
      start: 'A1',
      values: [
        ['Region', 'Q1', 'Q2'],
        ['North', 100, '12%'],
        ['South', 250.5, '$1,200'],
        ['Total', '=SUM(B2:B3)', '=B4*2'],
      ],
    })
    expect(receipt).toEqual({
      sheet: 'Sales',
      range: 'A1:C4',
      rows: 4,
      columns: 3,
      values: [
        ['Region', 'Q1', 'Q2'],
        ['North', '100', '12%'],
        ['South', '250.5', '$1,200'],
        ['Total', '350.5', '701'],
      ],
      formulas: { B4: '=SUM(B2:B3)', C4: '=B4*2' },
      types: { A1: 'text', B1: 'text', C1: 'text', A2: 'text', A3: 'text', A4: 'text' },
      formats: { C2: '0%', C3: '$#,##0' },
    })
  })

  it('set_cell_value reads text as typed into a spreadsheet', async () => {
    const cases: [unknown, string, Record<string, unknown>][] = [
      [42, '42', {}],
      ['2024-03-01', '2024-03-01', { types: { A1: 'date' }, formats: { A1: 'yyyy-mm-dd' } }],
      ['00123', '00123', { types: { A1: 'text' } }],
      ["'12%", '12%', { types: { A1: 'text' } }],
      [true, 'TRUE', { types: { A1: 'boolean' } }],
      ['North', 'North', { types: { A1: 'text' } }],
    ]
    for (const [value, shown, extra] of cases) {
      await h.call('clear_range', { path: P, sheet: 'Sales', range: 'A1', what: 'all' })
      const receipt = await h.call('set_cell_value', { path: P, sheet: 'Sales', cell: 'A1', value })
      expect(receipt).toEqual({
        sheet: 'Sales',
        range: 'A1',
        rows: 1,
        columns: 1,
        values: [[shown]],
        ...extra,
      })
    }
    const cleared = await h.call('set_cell_value', { path: P, sheet: 'Sales', cell: 'A1', value: null })
    expect(cleared).toEqual({
      sheet: 'Sales',
      range: 'A1',
      rows: 1,
      columns: 1,
      values: [['']],
      types: { A1: 'empty' },
    })
  })

  it('a text-formatted (@) cell keeps what is written as text, loaded whole or outlined', async () => {
    await h.call('set_range', { path: P, sheet: 'Sales', start: 'A1', values: [['Code', 'Qty']] })
    await h.call('set_number_format', { path: P, sheet: 'Sales', range: 'A2:A3', format: '@' })
    await h.call('set_number_format', { path: P, sheet: 'Sales', range: 'C:C', format: '@' })
    const written = await h.call('set_range', {
      path: P,
      sheet: 'Sales',
      start: 'A2',
      values: [
        ['00123', 5, 42],
        [7, 6, '2024-03-01'],
      ],
    })
    expect(written).toMatchObject({
      values: [
        ['00123', '5', '42'],
        ['7', '6', '2024-03-01'],
      ],
      types: { A2: 'text', A3: 'text', C2: 'text', C3: 'text' },
    })
    expect(written).not.toHaveProperty('types.B2')
    // Rows past the ones an outline loads: a write there is kept by the outline, not written to cells.
    const rows = Array.from({ length: 300 }, (_, i) => [i])
    await h.call('set_range', { path: P, sheet: 'Sales', start: 'B4', values: rows })
    await h.call('save', { path: P })
    await h.newSession()
    // Reopened from the file: an outline, whose plain writes skip the whole load.
    const again = await h.call('set_range', { path: P, sheet: 'Sales', start: 'A2', values: [[8], [9]] })
    expect(again).toMatchObject({ values: [['8'], ['9']], types: { A2: 'text', A3: 'text' } })
    const later = await h.call('set_range', { path: P, sheet: 'Sales', start: 'C250', values: [[12.5]] })
    expect(later).toMatchObject({ values: [['12.5']], types: { C250: 'text' } })
    await h.call('save', { path: P })
    await h.newSession()
    const read = await h.call('get_range', { path: P, sheet: 'Sales', range: 'A2:C3', detailed: true })
    expect(read).toMatchObject({ types: { A2: 'text', A3: 'text', C2: 'text', C3: 'text' } })
    expect(
      await h.call('get_range', { path: P, sheet: 'Sales', range: 'C250', detailed: true }),
    ).toMatchObject({
      values: [['12.5']],
      types: { C250: 'text' },
    })
  })

  it('set_cell_formula computes across sheets in dependency order and lists what it cannot compute', async () => {
    await h.call('add_sheet', { path: P, sheet: 'Calc' })
    await h.call('set_cell_value', { path: P, sheet: 'Sales', cell: 'A1', value: 10 })
    // Sales!B1 depends on Calc!A1, which depends on Sales!A1: evaluation order must cross sheets.
    await h.call('set_cell_formula', { path: P, sheet: 'Sales', cell: 'B1', formula: '=Calc!A1*2' })
    const calc = await h.call('set_cell_formula', {
      path: P,
      sheet: 'Calc',
      cell: 'A1',
      formula: 'Sales!A1+1',
    })
    expect(calc).toEqual({
      sheet: 'Calc',
      range: 'A1',
      rows: 1,
      columns: 1,
      values: [['11']],
      formulas: { A1: '=Sales!A1+1' },
    })
    const b1 = await h.call('get_range', { path: P, sheet: 'Sales', range: 'B1', detailed: true })
    expect(b1).toMatchObject({ values: [['22']], formulas: { B1: '=Calc!A1*2' } })
    const many = await h.call('set_range', {
      path: P,
      sheet: 'Calc',
      start: 'B1',
      values: [
        [
          '=SUMIFS(Sales!A1:A5,Sales!A1:A5,">5")',
          '=COUNTA(Sales!A1:B1)',
          '=TEXTJOIN("-",TRUE,"a","b")',
          '=NOSUCHFN(1)',
          '=E1+1',
          '=1/0',
        ],
      ],
    })
    expect(many).toEqual({
      sheet: 'Calc',
      range: 'B1:G1',
      rows: 1,
      columns: 6,
      values: [['10', '2', 'a-b', '0', '0', '#DIV/0!']],
      formulas: {
        B1: '=SUMIFS(Sales!A1:A5,Sales!A1:A5,">5")',
        C1: '=COUNTA(Sales!A1:B1)',
        D1: '=TEXTJOIN("-",TRUE,"a","b")',
        E1: '=NOSUCHFN(1)',
        F1: '=E1+1',
        G1: '=1/0',
      },
      types: { D1: 'text', G1: 'error' },
      uncalculated: { E1: 'function NOSUCHFN is not supported', F1: 'depends on uncalculated Calc!E1' },
    })
    const circular = await h.call('set_range', {
      path: P,
      sheet: 'Calc',
      start: 'A3',
      values: [['=B3', '=A3']],
    })
    expect(circular.uncalculated).toEqual({ A3: 'circular reference', B3: 'circular reference' })
  })

  it('append_rows writes below the last used row in the first used column', async () => {
    await h.call('set_range', {
      path: P,
      sheet: 'Sales',
      start: 'B2',
      values: [
        ['Item', 'Qty'],
        ['Pens', 3],
      ],
    })
    const receipt = await h.call('append_rows', {
      path: P,
      sheet: 'Sales',
      rows: [
        ['Ink', 7],
        ['Paper', '=C3+C4'],
      ],
    })
    expect(receipt).toEqual({
      sheet: 'Sales',
      range: 'B4:C5',
      rows: 2,
      columns: 2,
      values: [
        ['Ink', '7'],
        ['Paper', '10'],
      ],
      formulas: { C5: '=C3+C4' },
      types: { B4: 'text', B5: 'text' },
    })
  })

  it('clear_range clears contents and keeps formats, or clears everything', async () => {
    await h.call('set_range', { path: P, sheet: 'Sales', start: 'A1', values: [['$5.00', 'x']] })
    const contents = await h.call('clear_range', { path: P, sheet: 'Sales', range: 'A1:B1' })
    expect(contents).toEqual({
      sheet: 'Sales',
      range: 'A1:B1',
      rows: 1,
      columns: 2,
      values: [['', '']],
      types: { A1: 'empty', B1: 'empty' },
      formats: { A1: '$#,##0.00' },
    })
    const all = await h.call('clear_range', { path: P, sheet: 'Sales', range: 'A1:B1', what: 'all' })
    expect(all).not.toHaveProperty('formats')
  })
})

describe('structure edits keep formulas right', () => {
  beforeEach(async () => {
    await h.call('set_range', {
      path: P,
      sheet: 'Sales',
      start: 'A1',
      values: [
        [1, 10],
        [2, 20],
        [3, 30],
        ['=SUM(A1:A3)', '=SUM(B1:B3)'],
      ],
    })
    await h.call('add_sheet', { path: P, sheet: 'Other' })
    await h.call('set_cell_formula', { path: P, sheet: 'Other', cell: 'A1', formula: '=Sales!A2+Sales!B3' })
  })

  it('insert_rows and delete_rows shift references; deleted targets become #REF!', async () => {
    expect(await h.call('insert_rows', { path: P, sheet: 'Sales', row: 2, count: 2 })).toEqual({
      sheet: 'Sales',
      range: '2:3',
      applied: ['inserted 2 row(s) at 2', 'formulas adjusted'],
    })
    const moved = await h.call('get_range', { path: P, sheet: 'Sales', range: 'A6:B6', detailed: true })
    expect(moved).toMatchObject({ values: [['6', '60']], formulas: { A6: '=SUM(A1:A5)', B6: '=SUM(B1:B5)' } })
    expect(await h.call('get_range', { path: P, sheet: 'Other', range: 'A1', detailed: true })).toMatchObject(
      { values: [['32']], formulas: { A1: '=Sales!A4+Sales!B5' } },
    )
    expect(await h.call('delete_rows', { path: P, sheet: 'Sales', row: 4 })).toEqual({
      sheet: 'Sales',
      range: '4:4',
      applied: ['deleted 1 row(s) from 4', 'formulas adjusted'],
    })
    expect(await h.call('get_range', { path: P, sheet: 'Other', range: 'A1', detailed: true })).toMatchObject(
      { values: [['#REF!']], formulas: { A1: '=#REF!+Sales!B4' } },
    )
    expect(await h.call('get_range', { path: P, sheet: 'Sales', range: 'A5', detailed: true })).toMatchObject(
      { values: [['4']], formulas: { A5: '=SUM(A1:A4)' } },
    )
  })

  it('delete_rows of several rows reaching the last row removes them all, in memory and in the saved file', async () => {
    await h.call('set_range', {
      path: P,
      sheet: 'Sales',
      start: 'A5',
      values: [
        [7, 70],
        [8, 80],
        [9, 90],
      ],
    })
    expect(await h.call('delete_rows', { path: P, sheet: 'Sales', row: 5, count: 3 })).toEqual({
      sheet: 'Sales',
      range: '5:7',
      applied: ['deleted 3 row(s) from 5', 'formulas adjusted'],
    })
    const described = await h.call('describe_worksheet', { path: P, sheet: 'Sales' })
    expect(described).toMatchObject({ usedRange: 'A1:B4', rows: 4 })
    expect(await h.call('get_range', { path: P, sheet: 'Sales', range: 'A4:B7' })).toMatchObject({
      values: [
        ['6', '60'],
        ['', ''],
        ['', ''],
        ['', ''],
      ],
    })
    await h.call('save', { path: P })
    await h.newSession()
    const reopened = await h.call('describe_worksheet', { path: P, sheet: 'Sales' })
    expect(reopened).toMatchObject({ usedRange: 'A1:B4', rows: 4 })
  })

  it('insert_columns and delete_columns shift references', async () => {
    expect(await h.call('insert_columns', { path: P, sheet: 'Sales', column: 'B' })).toEqual({
      sheet: 'Sales',
      range: 'B:B',
      applied: ['inserted 1 column(s) at B', 'formulas adjusted'],
    })
    expect(
      await h.call('get_range', { path: P, sheet: 'Sales', range: 'A4:C4', detailed: true }),
    ).toMatchObject({
      values: [['6', '', '60']],
      formulas: { A4: '=SUM(A1:A3)', C4: '=SUM(C1:C3)' },
    })
    expect(await h.call('get_range', { path: P, sheet: 'Other', range: 'A1', detailed: true })).toMatchObject(
      { formulas: { A1: '=Sales!A2+Sales!C3' }, values: [['32']] },
    )
    expect(await h.call('delete_columns', { path: P, sheet: 'Sales', column: 'A' })).toEqual({
      sheet: 'Sales',
      range: 'A:A',
      applied: ['deleted 1 column(s) from A', 'formulas adjusted'],
    })
    expect(await h.call('get_range', { path: P, sheet: 'Other', range: 'A1', detailed: true })).toMatchObject(
      { formulas: { A1: '=#REF!+Sales!B3' } },
    )
  })

  it('copy_range slides relative references; sort_range orders rows and keeps the header', async () => {
    const copy = await h.call('copy_range', { path: P, sheet: 'Sales', source: 'A4:B4', target: 'C4' })
    expect(copy).toEqual({
      sheet: 'Sales',
      range: 'C4:D4',
      rows: 1,
      columns: 2,
      values: [['0', '0']],
      formulas: { C4: '=SUM(C1:C3)', D4: '=SUM(D1:D3)' },
    })
    await h.call('set_range', {
      path: P,
      sheet: 'Sales',
      start: 'F1',
      values: [
        ['Name', 'Score'],
        ['b', 2],
        ['c', null],
        ['a', 3],
        ['d', 1],
      ],
    })
    const sorted = await h.call('sort_range', {
      path: P,
      sheet: 'Sales',
      range: 'F1:G5',
      by: 'G',
      descending: true,
    })
    expect(sorted.values).toEqual([
      ['Name', 'Score'],
      ['a', '3'],
      ['b', '2'],
      ['d', '1'],
      ['c', ''],
    ])
  })

  it('sort_range moves formulas with their rows (relative references follow)', async () => {
    await h.call('set_range', {
      path: P,
      sheet: 'Sales',
      start: 'F1',
      values: [
        ['Name', 'Score', 'Double'],
        ['b', 2, '=G2*2'],
        ['a', 3, '=G3*2'],
        ['c', 1, '=G4*2'],
      ],
    })
    await h.call('sort_range', { path: P, sheet: 'Sales', range: 'F1:H4', by: 'G' })
    expect(
      await h.call('get_range', { path: P, sheet: 'Sales', range: 'F2:H4', detailed: true }),
    ).toMatchObject({
      values: [
        ['c', '1', '2'],
        ['b', '2', '4'],
        ['a', '3', '6'],
      ],
      formulas: { H2: '=G2*2', H3: '=G3*2', H4: '=G4*2' },
    })
  })

  it('rename_sheet updates formulas; delete_sheet refuses the last sheet', async () => {
    expect(await h.call('rename_sheet', { path: P, sheet: 'Sales', new_name: 'Q1 Sales' })).toEqual({
      sheet: 'Q1 Sales',
      range: 'A1',
      applied: ['renamed "Sales" to "Q1 Sales"', 'formulas updated'],
    })
    expect(await h.call('get_range', { path: P, sheet: 'Other', range: 'A1', detailed: true })).toMatchObject(
      { formulas: { A1: "='Q1 Sales'!A2+'Q1 Sales'!B3" }, values: [['32']] },
    )
    expect(await h.call('get_sheet_names', { path: P })).toEqual({ sheets: ['Q1 Sales', 'Other'] })
    await h.call('delete_sheet', { path: P, sheet: 'Other' })
    expect(await h.fail('delete_sheet', { path: P, sheet: 'Q1 Sales' })).toContain(
      'Sheet "Q1 Sales" is the only sheet; add another before deleting it',
    )
    expect(await h.call('add_sheet', { path: P, sheet: 'First', position: 1 })).toMatchObject({
      applied: ['added sheet at position 1 of 2'],
    })
    expect(await h.call('get_sheet_names', { path: P })).toEqual({ sheets: ['First', 'Q1 Sales'] })
  })
})

describe('reading', () => {
  beforeEach(async () => {
    const rows = [
      ['Date', 'Region', 'Amount'],
      ...Array.from({ length: 30 }, (_, i) => [
        `2024-01-${String(i + 1).padStart(2, '0')}`,
        i % 2 ? 'North' : 'South',
        i * 10,
      ]),
    ]
    await h.call('set_range', { path: P, sheet: 'Sales', start: 'A1', values: rows })
    await h.call('set_cell_formula', { path: P, sheet: 'Sales', cell: 'E1', formula: '=SUM(C:C)' })
  })

  it('describe_worksheet gives the compact picture', async () => {
    await h.call('freeze_panes', { path: P, sheet: 'Sales', cell: 'A2' })
    await h.call('merge_cells', { path: P, sheet: 'Sales', range: 'G1:H1' })
    const d = await h.call('describe_worksheet', { path: P, sheet: 'Sales' })
    expect(d).toEqual({
      sheet: 'Sales',
      usedRange: 'A1:E31',
      rows: 31,
      columns: 5,
      headerRow: null,
      columnInfo: [
        { column: 'A', name: '', type: 'mixed' },
        { column: 'B', name: '', type: 'text' },
        { column: 'C', name: '', type: 'mixed' },
        { column: 'D', name: '', type: 'empty' },
        { column: 'E', name: '', type: 'number' },
      ],
      sampleRows: [
        ['Date', 'Region', 'Amount', '', '4350'],
        ['2024-01-01', 'South', '0', '', ''],
        ['2024-01-02', 'North', '10', '', ''],
        ['2024-01-03', 'South', '20', '', ''],
        ['2024-01-04', 'North', '30', '', ''],
      ],
      tables: [],
      charts: [],
      mergedRanges: ['G1:H1'],
      formulaCount: 1,
      frozen: { rows: 1, columns: 0 },
    })
    await h.call('clear_range', { path: P, sheet: 'Sales', range: 'E1' })
    const clean = await h.call('describe_worksheet', { path: P, sheet: 'Sales' })
    expect(clean).toMatchObject({
      headerRow: 1,
      columnInfo: [
        { column: 'A', name: 'Date', type: 'date' },
        { column: 'B', name: 'Region', type: 'text' },
        { column: 'C', name: 'Amount', type: 'number' },
      ],
    })
  })

  it('get_range pages through rows; detailed gives the sparse receipt', async () => {
    const first = await h.call('get_range', { path: P, sheet: 'Sales', range: 'A:C', page_rows: 20 })
    expect(first).toMatchObject({ range: 'A1:C20', rows: 20, totalRows: 31, nextPage: 2 })
    expect(first).not.toHaveProperty('types')
    const second = await h.call('get_range', {
      path: P,
      sheet: 'Sales',
      range: 'A:C',
      page_rows: 20,
      page: 2,
    })
    expect(second).toMatchObject({ range: 'A21:C31', rows: 11, totalRows: 31 })
    expect(second).not.toHaveProperty('nextPage')
    expect((second.values as string[][])[10]).toEqual(['2024-01-30', 'North', '290'])
    const detailed = await h.call('get_range', { path: P, sheet: 'Sales', range: 'A2:C2', detailed: true })
    expect(detailed).toEqual({
      sheet: 'Sales',
      range: 'A2:C2',
      rows: 1,
      columns: 3,
      values: [['2024-01-01', 'South', '0']],
      types: { A2: 'date', B2: 'text' },
      formats: { A2: 'yyyy-mm-dd' },
      totalRows: 1,
    })
  })

  it('find searches display values, raw numbers and formulas', async () => {
    expect(await h.call('find', { path: P, query: 'north', limit: 2 })).toEqual({
      matches: [
        { sheet: 'Sales', cell: 'B3', value: 'North' },
        { sheet: 'Sales', cell: 'B5', value: 'North' },
      ],
      truncated: true,
    })
    expect(await h.call('find', { path: P, query: '4350', match: 'exact' })).toEqual({
      matches: [{ sheet: 'Sales', cell: 'E1', value: '4350', formula: '=SUM(C:C)' }],
      truncated: false,
    })
    expect(await h.call('find', { path: P, query: 'sum\\(', match: 'regex', in: 'formulas' })).toMatchObject({
      matches: [{ cell: 'E1' }],
    })
    expect(await h.fail('find', { path: P, query: '(', match: 'regex' })).toContain(
      '"(" is not a valid regular expression',
    )
  })
})

describe('open', () => {
  it('summarises the sheets and the formulas it computed, listing what it could not', async () => {
    await h.call('set_range', { path: P, sheet: 'Sales', start: 'B2', values: [[1, '=B2*2', '=NOSUCHFN()']] })
    await h.call('add_sheet', { path: P, sheet: 'Empty' })
    await h.newSession()
    expect(await h.call('open', { path: P })).toEqual({
      path: P,
      sheets: [
        { name: 'Sales', usedRange: 'B2:D2', rows: 1, columns: 3 },
        { name: 'Empty', usedRange: null, rows: 0, columns: 0 },
      ],
      formulas: 2,
      uncalculated: [{ sheet: 'Sales', cell: 'D2', reason: 'function NOSUCHFN is not supported' }],
    })
  })
})

describe('errors name the problem and change nothing', () => {
  it('gives short actionable messages', async () => {
    expect(await h.fail('describe_worksheet', { path: P, sheet: 'Data' })).toContain(
      'Sheet "Data" not found; sheets: Sales',
    )
    expect(await h.fail('set_cell_value', { path: P, sheet: 'Sales', cell: 'B0', value: 1 })).toContain(
      '"B0" is not a valid cell (use A1 style, e.g. B2)',
    )
    expect(await h.fail('open', { path: '/missing.xlsx' })).toContain(
      'No workbook at /missing.xlsx; use create to make a new one',
    )
    expect(await h.fail('open', { path: '/old.xls' })).toContain(
      '/old.xls is not an .xlsx path (.xls files are not supported; convert them to .xlsx first)',
    )
    expect(await h.fail('create', { path: P })).toContain(
      '/book.xlsx already exists; use open to edit it or choose another path',
    )
    expect(await h.fail('apply_style', { path: P, sheet: 'Sales', range: 'A1' })).toContain('no style given')
    expect(
      await h.fail('add_chart', { path: P, sheet: 'Sales', type: 'pie', data_range: 'A1:A3' }),
    ).toContain('data_range needs a header row')
    expect(await h.fail('rename_sheet', { path: P, sheet: 'Sales', new_name: 'a/b' })).toContain(
      '"a/b" is not a valid sheet name',
    )
  })
})
