import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { strFromU8 } from 'fflate'
import { afterEach, describe, expect, it } from 'vitest'
import { readPackage } from '../../../src/main/spreadsheet/ooxml/packageParts'
import { loadWorkbook } from '../../../src/main/spreadsheet/workbook/loadWorkbook'
import { saveWorkbook } from '../../../src/main/spreadsheet/workbook/saveWorkbook'
import { itNeeding } from '../../support/itNeeding'
import { createHarness, type Harness, renameFailingFs } from './harness'
import { XLSX_CORPUS, xlsxCorpusDir } from './xlsxCorpus'

let h: Harness
const P = '/save.xlsx'
afterEach(async () => h?.cleanup())

const fileBytes = (name: string) => readFileSync(path.join(h.root, name))
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')
const part = (name: string, file = 'save.xlsx') => strFromU8(readPackage(fileBytes(file))[name]!)

describe('save', () => {
  it('runs the deterministic pass, stores computed results, sets fullCalcOnLoad, keeps numbered backups', async () => {
    h = await createHarness()
    await h.call('create', { path: P, sheet: 'Report' })
    await h.call('set_range', {
      path: P,
      sheet: 'Report',
      start: 'A1',
      values: [
        ['Quarterly revenue by region', null, null, 'Costs'],
        ['Region', 'Revenue', null, 'Item'],
        ['North', 1200, null, 'Rent'],
        ['South', 3400.5, null, 'Power'],
        ['Total', '=SUM(B3:B4)', null, null],
        [null, null, null, null],
        ['Note', 'A much longer piece of text in column B', null, null],
      ],
    })
    await h.call('set_range', {
      path: P,
      sheet: 'Report',
      start: 'E2',
      values: [['Amount'], [500], ['=E3*2']],
    })
    await h.call('apply_style', { path: P, sheet: 'Report', range: 'E2', italic: true })
    await h.call('set_column_width', { path: P, sheet: 'Report', columns: 'D', width: 20 })
    const first = await h.call('save', { path: P })
    expect(first).toMatchObject({
      path: P,
      verified: 'reopened',
      carried: [],
      chartsAdded: 0,
      unquotedFormats: [],
    })
    expect(first).not.toHaveProperty('backup')
    expect(first.version).toMatch(/^[0-9a-f]{7,}$/)
    // Widths from display text (formula results included); D was set by the agent and stays.
    expect(first.widths).toEqual({ 'Report!A': 29, 'Report!B': 41, 'Report!E': 8 })
    // Title runs directly above numbers: A1:A2 is not (A3 is text), B2 is, E2 is styled explicitly.
    expect(first.titles).toEqual(['Report!B2'])
    const sheet = part('xl/worksheets/sheet1.xml')
    expect(sheet).toContain('<c r="B5"><f>SUM(B3:B4)</f><v>4600.5</v></c>')
    expect(sheet).toContain('<c r="E4"><f>E3*2</f><v>1000</v></c>')
    expect(part('xl/workbook.xml')).toMatch(/<calcPr[^>]*fullCalcOnLoad="1"/)
    await h.call('set_cell_value', { path: P, sheet: 'Report', cell: 'B3', value: 1300 })
    expect(await h.call('save', { path: P })).toMatchObject({ backup: '/save.001.bak' })
    await h.call('set_cell_value', { path: P, sheet: 'Report', cell: 'B3', value: 1400 })
    expect(await h.call('save', { path: P })).toMatchObject({ backup: '/save.002.bak' })
    expect(part('xl/worksheets/sheet1.xml')).toContain('<v>4800.5</v>')
  })

  it('gives each table its own title colour', async () => {
    h = await createHarness()
    await h.call('create', { path: P, sheet: 'S' })
    await h.call('set_range', {
      path: P,
      sheet: 'S',
      start: 'A1',
      values: [
        ['Qty', 'Price'],
        [1, 2],
      ],
    })
    await h.call('set_range', { path: P, sheet: 'S', start: 'A5', values: [['Other'], [3]] })
    await h.call('set_cell_value', { path: P, sheet: 'S', cell: 'B2', value: 2.5 })
    const save = await h.call('save', { path: P })
    expect(save.titles).toEqual(['S!A1', 'S!B1', 'S!A5'])
    const styles = part('xl/styles.xml')
    expect(styles).toContain('FFDDEBF7')
    expect(styles).toContain('FFE2EFDA')
  })

  it('save_as switches to the new path; close saves pending changes; session end saves the rest', async () => {
    h = await createHarness()
    await h.call('create', { path: P, sheet: 'S' })
    await h.call('set_cell_value', { path: P, sheet: 'S', cell: 'A1', value: 1 })
    expect(await h.call('save_as', { path: P, new_path: '/copy.xlsx' })).toMatchObject({ path: '/copy.xlsx' })
    await h.call('set_cell_value', { path: '/copy.xlsx', sheet: 'S', cell: 'A1', value: 2 })
    expect(await h.call('close', { path: '/copy.xlsx' })).toMatchObject({
      path: '/copy.xlsx',
      closed: true,
      saved: { backup: '/copy.001.bak' },
    })
    expect(await h.fail('get_sheet_names', { path: P })).toContain('No workbook at /save.xlsx')
    await h.call('create', { path: '/auto.xlsx', sheet: 'S' })
    await h.call('set_cell_value', { path: '/auto.xlsx', sheet: 'S', cell: 'B2', value: '=6*7' })
    await h.newSession()
    expect(
      await h.call('get_range', { path: '/auto.xlsx', sheet: 'S', range: 'B2', detailed: true }),
    ).toMatchObject({ values: [['42']], formulas: { B2: '=6*7' } })
    expect(await h.call('get_range', { path: '/copy.xlsx', sheet: 'S', range: 'A1' })).toMatchObject({
      values: [['2']],
    })
    await h.call('set_cell_value', { path: '/copy.xlsx', sheet: 'S', cell: 'A1', value: 3 })
    expect(await h.call('close', { path: '/copy.xlsx', save: false })).toEqual({
      path: '/copy.xlsx',
      closed: true,
      saved: null,
    })
    expect(await h.call('get_range', { path: '/copy.xlsx', sheet: 'S', range: 'A1' })).toMatchObject({
      values: [['2']],
    })
  })

  it('restore brings back the newest backup and reloads it', async () => {
    h = await createHarness()
    await h.call('create', { path: P, sheet: 'S' })
    expect(await h.fail('restore', { path: P })).toContain('/save.xlsx')
    await h.call('set_cell_value', { path: P, sheet: 'S', cell: 'A1', value: 'first' })
    await h.call('save', { path: P })
    await h.call('set_cell_value', { path: P, sheet: 'S', cell: 'A1', value: 'second' })
    await h.call('save', { path: P })
    await h.call('set_cell_value', { path: P, sheet: 'S', cell: 'A1', value: 'unsaved' })
    const restored = await h.call('restore', { path: P })
    expect(restored).toMatchObject({
      path: P,
      restoredFrom: '/save.001.bak',
      discardedChanges: true,
      sheets: [{ name: 'S', usedRange: 'A1' }],
    })
    expect(await h.call('get_range', { path: P, sheet: 'S', range: 'A1' })).toMatchObject({
      values: [['first']],
    })
  })
})

describe('crash safety: a failure during save leaves the original intact', () => {
  it('when the rename fails, the original bytes stay and no temp file is left', async () => {
    const { fs, failing } = renameFailingFs()
    h = await createHarness({ fs })
    await h.call('create', { path: P, sheet: 'S' })
    await h.call('set_cell_value', { path: P, sheet: 'S', cell: 'A1', value: 'kept' })
    await h.call('save', { path: P })
    const before = sha(fileBytes('save.xlsx'))
    await h.call('set_cell_value', { path: P, sheet: 'S', cell: 'A1', value: 'lost' })
    failing.rename = true
    expect(await h.fail('save', { path: P })).not.toContain(h.root)
    expect(sha(fileBytes('save.xlsx'))).toBe(before)
    expect(
      readdirSync(h.root).filter((n) => !n.startsWith('.') && n !== 'save.xlsx' && !n.endsWith('.bak')),
    ).toEqual([])
    failing.rename = false
    expect(await h.call('save', { path: P })).toMatchObject({ path: P })
    expect(part('xl/sharedStrings.xml')).toContain('lost')
  })

  itNeeding(
    [XLSX_CORPUS],
    'when verification fails (a carried part is broken), nothing is written',
    async () => {
      const source = readFileSync(path.join(xlsxCorpusDir, 'xlsxwriter', 'chart_line01.xlsx'))
      const open = await loadWorkbook('/chart.xlsx', source)
      open.original['xl/charts/chart1.xml'] = new TextEncoder().encode('<c:chartSpace><broken')
      open.workbook.worksheets[0]!.getCell('A1').value = 5
      open.changed()
      let writes = 0
      const error = await saveWorkbook(open, '/chart.xlsx', async () => {
        writes++
        return {}
      }).then(
        () => new Error('saved'),
        (e: unknown) => e as Error,
      )
      expect(error.message).toBe(
        'Save of /chart.xlsx stopped, the result would not be a valid workbook: xl/charts/chart1.xml is not well-formed XML (1:21: unclosed tag: c:chartSpace). The file was left untouched.',
      )
      expect(writes).toBe(0)
    },
  )
})
