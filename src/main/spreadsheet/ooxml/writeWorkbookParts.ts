import type { Workbook } from 'exceljs'
import type XmlStreamType from 'exceljs/lib/utils/xml-stream.js'
import type { Parts } from './packageParts'

/** What exceljs's XLSX writer calls a zip; its `add*` steps only ever `append`. */
interface PartSink {
  append(data: string | Uint8Array, options: { name: string; base64?: boolean }): void
}

interface StyledModel {
  style?: Record<string, unknown>
}
interface CellModel extends StyledModel {
  type?: number
  result?: unknown
}
interface WorksheetModel {
  id: number
  rows: (StyledModel & { cells: CellModel[] })[]
  rels?: unknown[]
  comments: unknown[]
}
interface WorkbookModel {
  worksheets: WorksheetModel[]
  styles: WriteRegistries['styles']
  sharedStrings: WriteRegistries['sharedStrings']
}

/** exceljs's registries while it writes: the style and shared-string ids the package will hold. */
export interface WriteRegistries {
  styles: { addStyleModel(model: object, cellType?: number): number }
  sharedStrings: { add(value: unknown): number; model: { count: number } }
}

/** Rewrites a worksheet's XML once exceljs has written it (rows it did not hold, an outlined sheet's). */
export type SheetTransform = (worksheetId: number, xml: Uint8Array, registries: WriteRegistries) => Uint8Array

type Step = (zip: PartSink, model: WorkbookModel) => unknown

/** exceljs 4.4.0 `XLSX`: the steps its `write()` runs, in the same order below. */
interface XlsxWriter {
  prepareModel(model: WorkbookModel, options: object): void
  addContentTypes: Step
  addOfficeRels: Step
  addWorkbookRels: Step
  addSharedStrings: Step
  addDrawings: Step
  addTables: Step
  addThemes: Step
  addStyles: Step
  addMedia: Step
  addApp: Step
  addCore: Step
  addWorkbook: Step
}

/** Fragments joined and encoded per chunk: a sheet's XML never exists as one list of millions of strings. */
const FLUSH_FRAGMENTS = 50_000

async function exceljsWriters() {
  const [xmlStream, worksheet, relationships, comments, vmlNotes] = await Promise.all([
    import('exceljs/lib/utils/xml-stream.js'),
    import('exceljs/lib/xlsx/xform/sheet/worksheet-xform.js'),
    import('exceljs/lib/xlsx/xform/core/relationships-xform.js'),
    import('exceljs/lib/xlsx/xform/comment/comments-xform.js'),
    import('exceljs/lib/xlsx/xform/comment/vml-notes-xform.js'),
  ])
  const XmlStream = xmlStream.default

  /**
   * exceljs's XmlStream keeps every fragment of a document in one array and joins it at the end (for a
   * 50,000-row sheet, millions of strings and ~500 MB). This one encodes the fragments to bytes every
   * FLUSH_FRAGMENTS, between elements and never inside a rollback scope, so the output is identical.
   */
  class ChunkedXmlStream extends XmlStream {
    private buffer: Buffer
    private length = 0
    private flushed = 0

    /** `capacity`: the expected size in bytes (the sheet's size when read), so the buffer rarely grows. */
    constructor(capacity = 64 * 1024) {
      super()
      this.buffer = Buffer.allocUnsafe(capacity)
    }

    override get cursor(): number {
      return this.flushed + this._xml.length
    }

    override openNode(name: string, attributes?: Record<string, unknown>): void {
      if (this._xml.length >= FLUSH_FRAGMENTS && this._rollbacks.length === 0) this.flush()
      super.openNode(name, attributes)
    }

    // Encoded straight into one buffer: chunks concatenated at the end held the sheet's bytes twice.
    private flush(): void {
      const text = this._xml.join('')
      const size = Buffer.byteLength(text)
      if (this.length + size > this.buffer.length) {
        const grown = Buffer.allocUnsafe(Math.max(this.length + size, Math.ceil(this.buffer.length * 1.5)))
        this.buffer.copy(grown, 0, 0, this.length)
        this.buffer = grown
      }
      this.buffer.write(text, this.length, 'utf8')
      this.length += size
      this.flushed += this._xml.length
      this._xml = []
    }

    bytes(): Uint8Array {
      this.closeAll()
      this.flush()
      return this.buffer.subarray(0, this.length)
    }

    override get xml(): string {
      return Buffer.from(this.bytes()).toString('utf8')
    }
  }

  return {
    XmlStream,
    ChunkedXmlStream,
    worksheet: new worksheet.default(),
    relationships: new relationships.default(),
    comments: new comments.default(),
    vmlNotes: new vmlNotes.default(),
  }
}

type Writers = Awaited<ReturnType<typeof exceljsWriters>>

/** Expected size in bytes of a worksheet's XML, by exceljs worksheet id (undefined: unknown). */
export type SizeHint = (worksheetId: number) => number | undefined

/** exceljs `XLSX.addWorksheets`, with the sheet XML streamed to bytes. */
function addWorksheets(
  writers: Writers,
  zip: PartSink,
  model: WorkbookModel,
  parts: Parts,
  sizeHint: SizeHint,
  transform: { apply: SheetTransform; registries: WriteRegistries } | undefined,
): void {
  const render = (xform: { render(s: XmlStreamType, m: unknown): void }, value: unknown) => {
    const stream = new writers.XmlStream()
    xform.render(stream, value)
    return stream.xml
  }
  for (const worksheet of model.worksheets) {
    const expected = sizeHint(worksheet.id)
    const stream = new writers.ChunkedXmlStream(expected ? Math.ceil(expected * 1.05) : undefined)
    writers.worksheet.render(stream, worksheet)
    const xml = stream.bytes()
    parts[`xl/worksheets/sheet${worksheet.id}.xml`] = transform
      ? transform.apply(worksheet.id, xml, transform.registries)
      : xml
    if (worksheet.rels?.length)
      zip.append(render(writers.relationships, worksheet.rels), {
        name: `xl/worksheets/_rels/sheet${worksheet.id}.xml.rels`,
      })
    if (worksheet.comments.length > 0) {
      zip.append(render(writers.comments, worksheet), { name: `xl/comments${worksheet.id}.xml` })
      zip.append(render(writers.vmlNotes, worksheet), {
        name: `xl/drawings/vmlDrawing${worksheet.id}.vml`,
      })
    }
  }
}

function isEmptyStyle(style: Record<string, unknown> | undefined): boolean {
  if (!style) return false
  for (const _ in style) return false
  return true
}

/** exceljs's ValueType numbers for a date and a formula (whose result's type counts). */
const DATE_TYPE = 4
const FORMULA_TYPE = 6

/** Whether exceljs's style registry gives this cell's empty style a date format (`mm-dd-yy`). */
function isDateCell(cell: CellModel): boolean {
  return cell.type === DATE_TYPE || (cell.type === FORMULA_TYPE && cell.result instanceof Date)
}

/**
 * exceljs gives every unstyled cell and row its own `{}` style, and its style registry only recognises a
 * style object it has seen before: each of them is serialised to XML to be looked up (about 1 s for
 * 600,000 cells). One shared empty object gets the same style id once. The registry remembers that id by
 * object while an empty style's id depends on the cell's type (a date gets a date format), so dates share
 * another empty object. Only the write model is touched (exceljs refreshes `model.style` from the cell on
 * every read), never a cell's own style.
 */
function shareEmptyStyles(model: WorkbookModel): void {
  const empty = {}
  const emptyDate = {}
  for (const worksheet of model.worksheets)
    for (const row of worksheet.rows) {
      if (isEmptyStyle(row.style)) row.style = empty
      for (const cell of row.cells)
        if (isEmptyStyle(cell.style)) cell.style = isDateCell(cell) ? emptyDate : empty
    }
}

/**
 * The package exceljs would write for `workbook`, as parts instead of a zip: the steps of its
 * `XLSX.write()` in the same order, collecting what they append, minus the JSZip round trip (a stored
 * zip, then unzipped again) and with worksheets streamed to bytes. Output is byte-identical to
 * `writeBuffer` (tested), so the carry-over and verification see what exceljs would have written.
 */
export async function writeWorkbookParts(
  workbook: Workbook,
  sizeHint: SizeHint = () => undefined,
  transform?: SheetTransform,
): Promise<Parts> {
  const writers = await exceljsWriters()
  const xlsx = workbook.xlsx as unknown as XlsxWriter
  const parts: Parts = {}
  const encoder = new TextEncoder()
  const zip: PartSink = {
    append(data, { name, base64 }) {
      parts[name] =
        typeof data !== 'string' ? data : base64 ? Buffer.from(data, 'base64') : encoder.encode(data)
    },
  }
  const model = workbook.model as unknown as WorkbookModel
  shareEmptyStyles(model)
  xlsx.prepareModel(model, {})
  await xlsx.addContentTypes(zip, model)
  await xlsx.addOfficeRels(zip, model)
  await xlsx.addWorkbookRels(zip, model)
  const registries = { styles: model.styles, sharedStrings: model.sharedStrings }
  addWorksheets(writers, zip, model, parts, sizeHint, transform && { apply: transform, registries })
  await xlsx.addSharedStrings(zip, model)
  await xlsx.addDrawings(zip, model)
  await xlsx.addTables(zip, model)
  await Promise.all([xlsx.addThemes(zip, model), xlsx.addStyles(zip, model)])
  await xlsx.addMedia(zip, model)
  await Promise.all([xlsx.addApp(zip, model), xlsx.addCore(zip, model)])
  await xlsx.addWorkbook(zip, model)
  return parts
}
