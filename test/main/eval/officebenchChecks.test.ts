import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Document, Packer, Paragraph, Table, TableCell, TableRow } from 'docx'
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Check, type CheckContext, runChecks } from '../../../src/main/eval/checks'
import { translateEvaluation } from '../../../src/main/eval/officebench'

// OfficeBench's evaluation functions as Bureau checks, on files written here: each case is one of the
// semantics the translation must keep (lower-casing, the comma rule, "not contain" of a missing file,
// the cell dump's substring match, the reference workbook, the diff, overlapping events, signatures).
let root: string
let ctx: CheckContext

async function workbook(path: string, rows: (string | number | null)[][], formula?: [string, string]) {
  const wb = new ExcelJS.Workbook()
  const ws = wb.addWorksheet('Sheet1')
  for (const row of rows) ws.addRow(row)
  if (formula) ws.getCell(formula[0]).value = { formula: formula[1], result: 0 }
  await wb.xlsx.writeFile(join(root, path))
}

const ics = (events: [string, string, string][]) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//test//EN',
    ...events.flatMap(([summary, start, end], i) => [
      'BEGIN:VEVENT',
      `UID:e${i}@test`,
      'DTSTAMP:20240101T000000Z',
      `SUMMARY:${summary}`,
      `DTSTART:${start}`,
      `DTEND:${end}`,
      'END:VEVENT',
    ]),
    'END:VCALENDAR',
    '',
  ].join('\r\n')

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'bureau-ob-checks-'))
  await mkdir(join(root, 'data'))
  await mkdir(join(root, 'calendar'))
  await workbook('data/score.xlsx', [
    ['Name', 'midterm1'],
    ['Alice', 1500],
    ['Bob', 25],
  ])
  await workbook('data/start.xlsx', [
    ['Name', 'midterm1'],
    ['Alice', 1500],
  ])
  await workbook('data/reference.xlsx', [
    ['Name', 'midterm1'],
    ['Alice', 1500],
    ['Bob', 25],
  ])
  await workbook('data/total.xlsx', [['a', 1]], ['B2', 'SUM(B1:B1)'])
  const doc = new Document({
    sections: [
      {
        children: [
          new Paragraph('Quarterly Report'),
          new Paragraph('Revenue was 1,234,567 dollars.'),
          new Table({
            rows: [new TableRow({ children: [new TableCell({ children: [new Paragraph('hidden')] })] })],
          }),
        ],
      },
    ],
  })
  await writeFile(join(root, 'data/report.docx'), await Packer.toBuffer(doc))
  await writeFile(join(root, 'data/answer.txt'), 'The answer is Tom.')
  await writeFile(join(root, 'data/photo.jpg'), 'not really a picture')
  await writeFile(
    join(root, 'calendar/Bob.ics'),
    ics([
      ['standup', '20240501T090000', '20240501T093000'],
      ['lunch', '20240501T120000', '20240501T130000'],
    ]),
  )
  await writeFile(
    join(root, 'calendar/Tom.ics'),
    ics([
      ['standup', '20240501T090000', '20240501T100000'],
      ['review', '20240501T093000', '20240501T103000'],
    ]),
  )
  ctx = {
    root,
    answer: '',
    submissions: [],
    reader: {
      convert: async () => {
        throw new Error('no PDF in these cases')
      },
    },
  }
})
afterAll(() => rm(root, { recursive: true, force: true }))

const verdict = (...checks: Check[]) => runChecks(checks, ctx)
const file = (path: string, format: 'xlsx' | 'docx' | 'pdf' | 'text') => ({
  kind: 'file' as const,
  path,
  format,
})

describe('OfficeBench checks', () => {
  it('keyword containment is case-blind and drops commas once a keyword is a number', async () => {
    const docx = file('/data/report.docx', 'docx')
    expect(
      (await verdict({ type: 'keywords', source: docx, keywords: ['REVENUE', '1234567'], absent: false })).ok,
    ).toBe(true)
    // Before any number keyword the commas are still there.
    expect(
      (await verdict({ type: 'keywords', source: docx, keywords: ['1,234,567'], absent: false })).ok,
    ).toBe(true)
    const after = await verdict({
      type: 'keywords',
      source: docx,
      keywords: ['1234567', '1,234,567'],
      absent: false,
    })
    expect(after).toEqual({ ok: false, reason: '/data/report.docx does not contain "1,234,567"' })
    // python-docx's paragraphs leave table cells out.
    expect((await verdict({ type: 'keywords', source: docx, keywords: ['hidden'], absent: false })).ok).toBe(
      false,
    )
  })

  it('"not contain" is the negation of the whole check: a missing file passes it, a present keyword set fails it', async () => {
    const missing = await verdict({
      type: 'keywords',
      source: file('/data/none.txt', 'text'),
      keywords: ['x'],
      absent: true,
    })
    expect(missing.ok).toBe(true)
    const some = await verdict({
      type: 'keywords',
      source: file('/data/answer.txt', 'text'),
      keywords: ['tom', 'bob'],
      absent: true,
    })
    expect(some.ok).toBe(true)
    const all = await verdict({
      type: 'keywords',
      source: file('/data/answer.txt', 'text'),
      keywords: ['tom'],
      absent: true,
    })
    expect(all).toMatchObject({ ok: false, reason: expect.stringMatching(/still contains/) })
    const plain = await verdict({
      type: 'keywords',
      source: file('/data/none.txt', 'text'),
      keywords: ['x'],
      absent: false,
    })
    expect(plain).toEqual({ ok: false, reason: '/data/none.txt does not exist' })
  })

  it('a sheet check is a substring of the (row, col): value dump, formulas as their text', async () => {
    const cell = (row: string, col: string, value: string): Check => ({
      type: 'sheetText',
      path: '/data/score.xlsx',
      matches: [{ row, col, value }],
    })
    expect((await verdict(cell('2', '2', '1500'))).ok).toBe(true)
    // OfficeBench matches a prefix: "(3, 2): 2" is inside "(3, 2): 25".
    expect((await verdict(cell('3', '2', '2'))).ok).toBe(true)
    expect((await verdict(cell('3', '2', '26'))).ok).toBe(false)
    const formula = await verdict({
      type: 'sheetText',
      path: '/data/total.xlsx',
      matches: [{ row: '2', col: '2', value: '=SUM(B1:B1)' }],
    })
    expect(formula.ok).toBe(true)
    const oneOf = await verdict({
      type: 'sheetText',
      path: '/data/score.xlsx',
      matches: [{ row: '3', col: '2', oneOf: ['1', '2'] }],
    })
    expect(oneOf).toMatchObject({ ok: false, reason: expect.stringMatching(/reads "25", not one of 1, 2/) })
  })

  it('a sheet equal to the reference passes; one cell off fails with the cell named', async () => {
    const ok = await verdict({
      type: 'sameSheet',
      path: '/data/score.xlsx',
      expected: join(root, 'data/reference.xlsx'),
    })
    expect(ok.ok).toBe(true)
    const off = await verdict({
      type: 'sameSheet',
      path: '/data/start.xlsx',
      expected: join(root, 'data/reference.xlsx'),
    })
    expect(off).toEqual({
      ok: false,
      reason: '/data/start.xlsx: the cell (3, 1) is [Empty Cell], the reference has Bob',
    })
  })

  it('the diff check needs a change whose lines hold every keyword, case-sensitively', async () => {
    const diff = (keywords: string[], path = '/data/score.xlsx'): Check => ({
      type: 'sheetDiff',
      path,
      start: join(root, 'data/start.xlsx'),
      keywords,
    })
    expect((await verdict(diff(['Bob', '25']))).ok).toBe(true)
    expect((await verdict(diff(['bob']))).ok).toBe(false)
    // Alice's row did not change, so it is not in the diff.
    expect((await verdict(diff(['Alice']))).ok).toBe(false)
    expect(await verdict(diff(['Bob'], '/data/start.xlsx'))).toEqual({
      ok: false,
      reason: '/data/start.xlsx is unchanged',
    })
  })

  it('overlapping events fail the calendar check; back-to-back ones do not', async () => {
    expect((await verdict({ type: 'noOverlap', path: '/calendar/Bob.ics' })).ok).toBe(true)
    expect(await verdict({ type: 'noOverlap', path: '/calendar/Tom.ics' })).toEqual({
      ok: false,
      reason: '/calendar/Tom.ics: "standup" and "review" overlap',
    })
  })

  it('a text file named .jpg is not an image', async () => {
    expect(await verdict({ type: 'fileSignature', path: '/data/photo.jpg', format: 'jpeg' })).toEqual({
      ok: false,
      reason: '/data/photo.jpg is not a JPEG file (its content does not start like one)',
    })
    expect((await verdict({ type: 'fileSignature', path: '/data/report.docx', format: 'docx' })).ok).toBe(
      true,
    )
  })
})

describe('translating OfficeBench evaluations', () => {
  const ctxOf = { taskDir: '/nowhere/tasks/1-9', username: 'Bob' }

  it('maps each function onto checks with agent paths', () => {
    const t = translateEvaluation(ctxOf, [
      {
        function: 'evaluate_contain',
        args: { doc_type: 'ics', file: './data/answer.txt', keywords: ['Tom'] },
      },
      { function: 'evaluate_not_contain', args: { doc_type: 'email', username: 'alice', keywords: ['x'] } },
      { function: 'evaluate_file_exist', args: { file: 'data/a.jpg' } },
      { function: 'evaluate_file_exist', args: { file: 'emails/Bob/report.eml' } },
      { function: 'evaluate_calendar_no_overlap', args: { username: 'Tom' } },
    ])
    expect(t.cannotPass).toBeUndefined()
    expect(t.checks).toEqual([
      {
        type: 'keywords',
        source: { kind: 'file', path: '/data/answer.txt', format: 'text' },
        keywords: ['Tom'],
        absent: false,
      },
      {
        type: 'keywords',
        source: { kind: 'mail', person: 'alice', own: false },
        keywords: ['x'],
        absent: true,
      },
      { type: 'files', exist: ['/data/a.jpg'], absent: [] },
      { type: 'fileSignature', path: '/data/a.jpg', format: 'jpeg' },
      { type: 'mail', folder: 'Sent', to: [], subject: 'report', includes: [] },
      { type: 'noOverlap', path: '/calendar/Tom.ics' },
    ])
  })

  it('names why a check can never pass: no file, a reader that fails on the file, a missing reference', () => {
    const t = translateEvaluation(ctxOf, [
      { function: 'evaluate_excel_cell_value', args: { matches: [{ row: '1', col: '1', value: 'a' }] } },
      { function: 'evaluate_contain', args: { doc_type: 'xlsx', file: 'data/list.docx', keywords: ['a'] } },
      {
        function: 'evaluate_exact_match',
        args: {
          doc_type: 'xlsx',
          result_file: 'data/a.xlsx',
          expected_file: `${'../'.repeat(4)}reference/a.xlsx`,
        },
      },
    ])
    expect(t.cannotPass?.split('; ')).toEqual([
      'evaluate_excel_cell_value: the check names no file (its "file" is not among its arguments)',
      'evaluate_contain: the check reads data/list.docx as xlsx, a reader that fails on a .docx file',
      'evaluate_exact_match: the reference workbook reference/a.xlsx does not exist',
    ])
  })
})
