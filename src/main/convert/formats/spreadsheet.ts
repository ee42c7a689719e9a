import type { WorkBook, WorkSheet } from '@e965/xlsx'
import { FormatProblem } from '../errors'
import { checkpoint } from '../limits'
import { renderSheet } from '../table/renderSheet'
import { applyMerges, type MergedRange, shapeTable } from '../table/shapeGrid'
import type { ConvertContext, FormatOutput } from '../types'
import { isCompleteXml } from '../xml/completeXml'
import { readZip } from '../zip/readZip'

type Xlsx = typeof import('@e965/xlsx')

let xlsx: Promise<Xlsx> | undefined

async function loadXlsx(legacy: boolean): Promise<Xlsx> {
  xlsx ??= import('@e965/xlsx')
  const library = await xlsx
  // Legacy .xls stores text in the workbook's code page; set_cptable takes the whole module (it reads .utils).
  if (legacy) library.set_cptable(await import('@e965/xlsx/dist/cpexcel.full.mjs'))
  return library
}

function sheetGrid(
  library: Xlsx,
  sheet: WorkSheet,
): { grid: string[][]; merges: MergedRange[]; width: number } {
  const ref = sheet['!ref']
  if (!ref) return { grid: [], merges: [], width: 0 }
  const range = library.utils.decode_range(ref)
  const grid = library.utils.sheet_to_json<string[]>(sheet, {
    header: 1,
    raw: false,
    defval: '',
    blankrows: true,
  })
  const merges = (sheet['!merges'] ?? []).map((merge) => ({
    top: merge.s.r - range.s.r,
    left: merge.s.c - range.s.c,
    bottom: merge.e.r - range.s.r,
    right: merge.e.c - range.s.c,
  }))
  return { grid, merges, width: range.e.c - range.s.c + 1 }
}

/**
 * Zip-based workbooks are checked before SheetJS sees them: size (zip-bomb guard) and whether the
 * workbook and sheet parts are complete, since SheetJS silently reads a cut-off sheet as empty.
 */
function checkArchive(context: ConvertContext): void {
  if (context.bytes[0] !== 0x50 || context.bytes[1] !== 0x4b) return
  const parts = readZip(context.bytes, (name) =>
    /^xl\/(workbook|worksheets\/[^/]+|sharedStrings)\.xml$/.test(name),
  )
  for (const [name, data] of parts) {
    if (isCompleteXml(new TextDecoder().decode(data))) continue
    if (name === 'xl/workbook.xml')
      throw new FormatProblem('damaged', 'the workbook part is damaged or truncated')
    context.warn(`${name} is damaged or truncated; cells may be missing`)
  }
}

/** One `## Sheet` section per worksheet with its formatted cell text as a table. */
export async function convertWorkbook(context: ConvertContext): Promise<FormatOutput> {
  checkArchive(context)
  const library = await loadXlsx(context.format === 'xls')
  const workbook: WorkBook = library.read(context.bytes, {
    type: 'array',
    cellText: true,
    cellDates: false,
    WTF: false,
  })
  const names = workbook.SheetNames
  if (names.length === 0)
    throw new FormatProblem('damaged', 'the workbook has no readable sheets; it may be damaged or truncated')
  const perSheet = context.maxChars
    ? Math.floor(context.maxChars / Math.max(1, names.length)) - 50
    : undefined
  const sections: string[] = []
  let truncated = false
  for (const name of names) {
    await checkpoint(context.signal)
    const sheet = workbook.Sheets[name]
    if (!sheet) continue
    const hidden = workbook.Workbook?.Sheets?.find((entry) => entry.name === name)?.Hidden
    const { grid, merges, width } = sheetGrid(library, sheet)
    applyMerges(grid, merges, width)
    const rendered = renderSheet(shapeTable(grid), perSheet)
    truncated ||= rendered.summarised
    const heading = `## ${name}${hidden ? ' (hidden sheet)' : ''}`
    sections.push(rendered.markdown ? `${heading}\n\n${rendered.markdown}` : `${heading}\n\n(empty sheet)`)
  }
  if (sections.every((section) => section.endsWith('(empty sheet)'))) {
    if (context.format === 'xls')
      throw new FormatProblem(
        'damaged',
        'no cell of the workbook could be read; it may be damaged or truncated',
      )
    context.warn('the workbook has no cell content')
  }
  const title = workbook.Props?.Title
  return title
    ? { markdown: sections.join('\n\n'), title, truncated }
    : { markdown: sections.join('\n\n'), truncated }
}
