import { PassThrough } from 'node:stream'
import type { CellValue, Style, Workbook } from 'exceljs'
import type { Parts } from './packageParts'

// exceljs 4.4.0's `xlsx.load()` (pinned), fed from the parts Bureau has already inflated instead of
// from JSZip: JSZip inflated every part a second time and decoded a worksheet into one string (for a
// 22 MB sheet, 22 MB of chunks plus their 22 MB join, all held until the sheet was parsed). Here each part
// reaches exceljs's parser as 16 KB strings decoded one at a time, and its bytes are let go as soon as it
// is parsed. The dispatch below is exceljs's own (same part names, same handlers, same order).

type Model = Record<string, unknown> & { worksheets: unknown[] }
type EntryStream = AsyncIterable<string> | PassThrough

interface XlsxInternals {
  parseRels(stream: EntryStream): Promise<unknown>
  parseWorkbook(stream: EntryStream): Promise<Record<string, unknown>>
  reconcile(model: Model, options: undefined): void
  _processWorksheetEntry(s: EntryStream, m: Model, n: string, o: undefined, path: string): Promise<void>
  _processWorksheetRelsEntry(s: EntryStream, m: Model, n: string): Promise<void>
  _processThemeEntry(s: EntryStream, m: Model, n: string): Promise<void>
  _processMediaEntry(s: EntryStream, m: Model, n: string): Promise<void>
  _processDrawingEntry(s: EntryStream, m: Model, n: string): Promise<void>
  _processCommentEntry(s: EntryStream, m: Model, n: string): Promise<void>
  _processTableEntry(s: EntryStream, m: Model, n: string): Promise<void>
  _processDrawingRelsEntry(s: EntryStream, m: Model, n: string): Promise<void>
  _processVmlDrawingEntry(s: EntryStream, m: Model, n: string): Promise<void>
}

interface Parser {
  parseStream(stream: EntryStream): Promise<Record<string, unknown>>
}

/** exceljs's parsed styles: the style model of a cell or row's `s` (one shared object per id). */
export interface ParsedStyles {
  getStyleModel(id: number): Partial<Style> | null
}

/** exceljs's parsed shared strings: an entry is a string or a rich text value. */
export interface ParsedSharedStrings {
  getString(index: number): CellValue | undefined
}

/**
 * What exceljs parsed of the package besides the sheets, kept by an outline to read rows it did not
 * load the way exceljs would have read them.
 */
export interface ReadContext {
  styles: ParsedStyles
  sharedStrings: ParsedSharedStrings
}

const NO_STYLES: ParsedStyles = { getStyleModel: () => null }
const NO_STRINGS: ParsedSharedStrings = { getString: () => undefined }

/**
 * exceljs's parser turns each chunk into one array of events, all alive until the chunk is handled; a
 * scavenge that finds them alive moves them to the old generation, where they pile up as garbage. 16 KB
 * chunks instead of 64 KB: 50,000 x 12 cells load with a peak about 40 MB lower, no slower.
 */
const CHUNK = 16 * 1024

async function* text(bytes: Uint8Array): AsyncGenerator<string> {
  const decoder = new TextDecoder()
  for (let i = 0; i < bytes.byteLength; i += CHUNK)
    yield decoder.decode(bytes.subarray(i, i + CHUNK), { stream: true })
  const rest = decoder.decode()
  if (rest) yield rest
}

function binary(bytes: Uint8Array): PassThrough {
  const stream = new PassThrough()
  stream.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))
  return stream
}

async function xforms() {
  const [shared, styles, app, core] = await Promise.all([
    import('exceljs/lib/xlsx/xform/strings/shared-strings-xform.js'),
    import('exceljs/lib/xlsx/xform/style/styles-xform.js'),
    import('exceljs/lib/xlsx/xform/core/app-xform.js'),
    import('exceljs/lib/xlsx/xform/core/core-xform.js'),
  ])
  type Ctor = new () => Parser
  const ctor = (m: unknown) => ((m as { default?: Ctor }).default ?? m) as Ctor
  return { Shared: ctor(shared), Styles: ctor(styles), App: ctor(app), Core: ctor(core) }
}

const SUB_ENTRIES: [RegExp, keyof XlsxInternals][] = [
  [/xl\/worksheets\/_rels\/sheet(\d+)[.]xml.rels/, '_processWorksheetRelsEntry'],
  [/xl\/theme\/([a-zA-Z0-9]+)[.]xml/, '_processThemeEntry'],
  [/xl\/media\/([a-zA-Z0-9]+[.][a-zA-Z0-9]{3,4})$/, '_processMediaEntry'],
  [/xl\/drawings\/([a-zA-Z0-9]+)[.]xml/, '_processDrawingEntry'],
  [/xl\/(comments\d+)[.]xml/, '_processCommentEntry'],
  [/xl\/tables\/(table\d+)[.]xml/, '_processTableEntry'],
  [/xl\/drawings\/_rels\/([a-zA-Z0-9]+)[.]xml[.]rels/, '_processDrawingRelsEntry'],
  [/xl\/drawings\/(vmlDrawing\d+)[.]vml/, '_processVmlDrawingEntry'],
]

/**
 * Loads `parts` into `workbook` as `workbook.xlsx.load(zip of parts)` would. Consumes `parts`: each part
 * is deleted from it once parsed, so the caller's last reference to the inflated package can go.
 */
export async function loadExceljsParts(workbook: Workbook, parts: Parts): Promise<ReadContext> {
  const xlsx = workbook.xlsx as unknown as XlsxInternals
  const { Shared, Styles, App, Core } = await xforms()
  const model: Model = {
    worksheets: [],
    worksheetHash: {},
    worksheetRels: [],
    themes: {},
    media: [],
    mediaIndex: {},
    drawings: {},
    drawingRels: {},
    comments: {},
    tables: {},
    vmlDrawings: {},
  }
  for (const entry of Object.keys(parts)) {
    const bytes = parts[entry]!
    delete parts[entry]
    const name = entry.startsWith('/') ? entry.slice(1) : entry
    const raw = /xl\/media\//.test(name) || /xl\/theme\/([a-zA-Z0-9]+)[.]xml/.test(name)
    const stream = raw ? binary(bytes) : text(bytes)
    switch (name) {
      case '_rels/.rels':
        model.globalRels = await xlsx.parseRels(stream)
        break
      case 'xl/workbook.xml': {
        const wb = await xlsx.parseWorkbook(stream)
        Object.assign(model, {
          sheets: wb.sheets,
          definedNames: wb.definedNames,
          views: wb.views,
          properties: wb.properties,
          calcProperties: wb.calcProperties,
        })
        break
      }
      case 'xl/_rels/workbook.xml.rels':
        model.workbookRels = await xlsx.parseRels(stream)
        break
      case 'xl/sharedStrings.xml':
        model.sharedStrings = new Shared()
        await (model.sharedStrings as Parser).parseStream(stream)
        break
      case 'xl/styles.xml':
        model.styles = new Styles()
        await (model.styles as Parser).parseStream(stream)
        break
      case 'docProps/app.xml': {
        const app = await new App().parseStream(stream)
        model.company = app.company
        model.manager = app.manager
        break
      }
      case 'docProps/core.xml':
        Object.assign(model, await new Core().parseStream(stream))
        break
      default:
        await subEntry(xlsx, stream, model, name)
    }
  }
  // Taken before `reconcile`, which deletes them from the model.
  const read = {
    styles: (model.styles as ParsedStyles | undefined) ?? NO_STYLES,
    sharedStrings: (model.sharedStrings as ParsedSharedStrings | undefined) ?? NO_STRINGS,
  }
  keepLocationLinks(model)
  xlsx.reconcile(model, undefined)
  ;(workbook as unknown as { model: Model }).model = model
  return read
}

const HYPERLINK_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink'

interface LoadedSheetModel {
  sheetNo?: number
  hyperlinks?: { address?: string; rId?: string; target?: string }[]
}

/**
 * exceljs 4.4.0 keeps only hyperlinks that have a relationship, so a link to a cell of the workbook as
 * Excel and LibreOffice write it (`location` only) would be lost on reading; it is given a relationship
 * here, before `reconcile` turns the links into cell values.
 */
function keepLocationLinks(model: Model): void {
  const sheets = (model.worksheets as LoadedSheetModel[] | undefined) ?? []
  const rels = model.worksheetRels as
    | Record<number, { Id: string; Type: string; Target: string }[]>
    | undefined
  if (!rels) return
  for (const sheet of sheets) {
    const links = sheet.hyperlinks?.filter((link) => !link.rId && link.target)
    if (!links?.length || sheet.sheetNo === undefined) continue
    const list = rels[sheet.sheetNo] ?? []
    rels[sheet.sheetNo] = list
    links.forEach((link, i) => {
      link.rId = `bureauLocation${i + 1}`
      list.push({ Id: link.rId, Type: HYPERLINK_REL, Target: link.target as string })
    })
  }
}

async function subEntry(xlsx: XlsxInternals, stream: EntryStream, model: Model, name: string) {
  const sheet = /xl\/worksheets\/sheet(\d+)[.]xml/.exec(name)
  if (sheet) return xlsx._processWorksheetEntry(stream, model, sheet[1]!, undefined, name)
  for (const [pattern, handler] of SUB_ENTRIES) {
    const match = pattern.exec(name)
    if (match) return (xlsx[handler] as typeof xlsx._processThemeEntry).call(xlsx, stream, model, match[1]!)
  }
}
