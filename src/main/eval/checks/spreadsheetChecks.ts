import { readFile } from 'node:fs/promises'
import type ExcelJS from 'exceljs'
import { strFromU8, unzipSync } from 'fflate'
import { cellInfo, norm, sameValue, show } from './cellText'
import type { CheckOf, Scalar } from './checkSchema'
import { type CheckContext, diskPath, fail, readWorkbook, worksheet } from './context'

function columnNumber(letters: string): number {
  let n = 0
  for (const ch of letters) n = n * 26 + (ch.charCodeAt(0) - 64)
  return n
}

function columnLetters(n: number): string {
  let s = ''
  for (let c = n; c > 0; c = Math.floor((c - 1) / 26)) s = String.fromCharCode(65 + ((c - 1) % 26)) + s
  return s
}

function parseRange(range: string) {
  const [a, b = a] = range.split(':') as [string, string?]
  const cell = (ref: string) => {
    const m = /^([A-Z]+)(\d+)$/.exec(ref)
    if (!m) throw new Error(`bad cell ${ref}`)
    return { col: columnNumber(m[1] as string), row: Number(m[2]) }
  }
  const from = cell(a)
  const to = cell(b as string)
  return { top: from.row, left: from.col, bottom: to.row, right: to.col }
}

export async function checkCells(check: CheckOf<'cells'>, ctx: CheckContext): Promise<string> {
  const ws = worksheet(await readWorkbook(ctx, check.path), check.path, check.sheet)
  const area = parseRange(check.range)
  for (let row = area.top; row <= area.bottom; row++) {
    for (let col = area.left; col <= area.right; col++) {
      const label = `${check.sheet}!${columnLetters(col)}${row}`
      const cell = ws.getCell(row, col)
      const info = cellInfo(cell)
      const expected = check.values?.[row - area.top]?.[col - area.left]
      if (expected !== undefined && !sameValue(info.value, expected, check.tolerance))
        fail(`${label} is ${show(info.value)}, expected ${show(expected)}`)
      if (check.formula !== undefined) {
        const pattern = new RegExp(`^=?${check.formula.replaceAll('{row}', String(row))}$`, 'i')
        const formula = (info.formula ?? '').replace(/\s+/g, '').replaceAll('$', '')
        if (!info.formula) fail(`${label} holds a value (${show(info.value)}), not a formula`)
        if (!pattern.test(formula))
          fail(`${label} has the formula =${info.formula}, expected ${pattern.source}`)
      }
      if (check.numFmt !== undefined && !new RegExp(check.numFmt).test(cell.numFmt ?? ''))
        fail(`${label} has the number format "${cell.numFmt ?? 'General'}", expected /${check.numFmt}/`)
      if (check.bold !== undefined && (cell.font?.bold === true) !== check.bold)
        fail(`${label} is ${check.bold ? 'not ' : ''}bold`)
    }
  }
  return `${check.sheet}!${check.range} as expected`
}

function rowValues(ws: ExcelJS.Worksheet, row: number, left: number, width: number): Scalar[] {
  return Array.from({ length: width }, (_, i) => cellInfo(ws.getCell(row, left + i)).value)
}

function findHeader(ws: ExcelJS.Worksheet, header: readonly string[]): { row: number; col: number } | null {
  for (let row = 1; row <= ws.rowCount; row++) {
    for (let col = 1; col <= Math.max(ws.columnCount, 1); col++) {
      const values = rowValues(ws, row, col, header.length)
      if (values.every((v, i) => typeof v === 'string' && norm(v) === norm(header[i] as string)))
        return { row, col }
    }
  }
  return null
}

export async function checkTable(check: CheckOf<'table'>, ctx: CheckContext): Promise<string> {
  const ws = worksheet(await readWorkbook(ctx, check.path), check.path, check.sheet)
  const at = findHeader(ws, check.header)
  if (!at) fail(`${check.sheet} has no header row ${JSON.stringify(check.header)}`)
  const width = check.header.length
  const found: Scalar[][] = []
  for (let row = at.row + 1; row <= ws.rowCount; row++) {
    const values = rowValues(ws, row, at.col, width)
    if (values.every((v) => v === null || v === '')) break
    found.push(values)
  }
  const same = (a: readonly Scalar[], b: readonly Scalar[]) =>
    b.every((v, i) => sameValue(a[i] ?? null, v, 0.005))
  if (found.length !== check.rows.length)
    fail(`${check.sheet} has ${found.length} rows under the header, expected ${check.rows.length}`)
  const left = [...found]
  for (const [i, expected] of check.rows.entries()) {
    const index =
      check.order === 'exact'
        ? same(found[i] ?? [], expected)
          ? i
          : -1
        : left.findIndex((r) => same(r, expected))
    if (index < 0)
      fail(
        `${check.sheet}: row ${JSON.stringify(expected)} is missing${check.order === 'exact' ? ` at position ${i + 1}` : ''}`,
      )
    if (check.order === 'any') left.splice(index, 1)
  }
  return `${check.sheet}: ${found.length} rows as expected`
}

export async function checkSheets(check: CheckOf<'sheets'>, ctx: CheckContext): Promise<string> {
  const names = (await readWorkbook(ctx, check.path)).worksheets.map((w) => w.name)
  for (const name of check.include)
    if (!names.includes(name)) fail(`${check.path} has no sheet "${name}" (has ${names.join(', ')})`)
  for (const name of check.exclude)
    if (names.includes(name)) fail(`${check.path} still has the sheet "${name}"`)
  return `sheets ${names.join(', ')}`
}

/** A1 reference as written in chart XML, compared without $ and quotes. */
function refKey(ref: string): string {
  return ref.replaceAll('$', '').replaceAll("'", '').replace(/\s+/g, '').toUpperCase()
}

interface ChartRefs {
  plots: string[]
  values: string[]
  categories: string[]
}

function chartRefs(xml: string): ChartRefs {
  const plots = [...xml.matchAll(/<c:([a-zA-Z]+Chart)>/g)]
    .map((m) => m[1] as string)
    .filter((p) => p !== 'chart')
  const refs = (tag: string) =>
    [...xml.matchAll(new RegExp(`<c:${tag}>[\\s\\S]*?<c:f>([^<]+)</c:f>`, 'g'))].map((m) =>
      refKey(m[1] as string),
    )
  return { plots, values: [...refs('val'), ...refs('yVal')], categories: [...refs('cat'), ...refs('xVal')] }
}

export async function checkChart(check: CheckOf<'chart'>, ctx: CheckContext): Promise<string> {
  let parts: Record<string, Uint8Array>
  try {
    parts = unzipSync(new Uint8Array(await readFile(diskPath(ctx, check.path))))
  } catch {
    fail(`${check.path} does not exist or is not a zip package`)
  }
  const charts = Object.keys(parts)
    .filter((name) => /^xl\/charts\/chart\d+\.xml$/.test(name))
    .map((name) => chartRefs(strFromU8(parts[name] as Uint8Array)))
  if (charts.length === 0) fail(`${check.path} has no chart`)
  const wanted = check.values.map(refKey)
  const match = charts.find(
    (c) =>
      c.plots.some((p) => check.plots.includes(p)) &&
      wanted.every((w) => c.values.includes(w)) &&
      (check.categories === undefined || c.categories.includes(refKey(check.categories))),
  )
  if (!match) {
    const seen = charts.map(
      (c) => `${c.plots.join('+')} of ${c.values.join(', ')} by ${c.categories.join(', ') || '-'}`,
    )
    fail(`no ${check.plots.join('/')} chart of ${wanted.join(', ')}; found: ${seen.join('; ')}`)
  }
  return `chart of ${wanted.join(', ')}`
}
