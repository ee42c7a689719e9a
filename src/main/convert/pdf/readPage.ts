import { findGridTables } from './gridTables'
import { buildLines } from './lines'
import { type DecodedImage, fromBitmap } from './pageImage'
import { largestImage, pageRules } from './pageObjects'
import type { PdfDocument } from './pdfDocument'
import { holding, type Pdfium } from './pdfium'
import type { Ptr } from './pdfiumExports'
import { textRuns } from './textRuns'
import type { Line } from './types'

export interface PageText {
  /** Empty for a page without a text layer (a scan): its image is read after the text pages. */
  lines: Line[]
}

/** A scan smaller than this many pixels is a logo or an icon, not a page to read. */
const MIN_SCAN_PIXELS = 200 * 200

/** Runs `read` on page `index` (0-based), closing the page after (unless the engine failed). */
function withPage<T>(engine: Pdfium, document: PdfDocument, index: number, read: (page: Ptr) => T): T {
  const page = engine.x.FPDF_LoadPage(document.handle, index)
  if (!page) throw new Error(`page ${index + 1} could not be loaded`)
  return holding(
    engine,
    () => read(page),
    () => engine.x.FPDF_ClosePage(page),
  )
}

/** The top of the page's visible box (the crop box within the media box), where y = 0 is top-down. */
function pageTop(engine: Pdfium, page: Ptr): number {
  const scratch = engine.heap.scratch
  return engine.x.FPDF_GetPageBoundingBox(page, scratch) ? engine.heap.f32(scratch + 4) : 0
}

function gridLine(table: { top: number; left: number; right: number; rows: string[][] }): Line {
  return {
    y: table.top,
    x0: table.left,
    x1: table.right,
    size: 0,
    bold: false,
    segments: [],
    text: '',
    table: table.rows,
  }
}

/** Text runs with font styles, grouped into lines; bordered tables from the page's ruling lines. */
export function readPage(engine: Pdfium, document: PdfDocument, index: number): PageText {
  return withPage(engine, document, index, (page) => {
    const top = pageTop(engine, page)
    const textPage = engine.x.FPDFText_LoadPage(page)
    if (!textPage) throw new Error(`the text of page ${index + 1} could not be read`)
    const runs = holding(
      engine,
      () => textRuns(engine, textPage, top),
      () => engine.x.FPDFText_ClosePage(textPage),
    )
    // A page without text has no table to rebuild: its drawing is not walked.
    const grids = findGridTables(runs.length > 0 ? pageRules(engine, page, top) : [], runs)
    const lines = [
      ...buildLines(runs.filter((run) => !grids.used.has(run))),
      ...grids.tables.map(gridLine),
    ].sort((a, b) => a.y - b.y)
    const characters = lines.reduce((sum, line) => sum + line.text.length + (line.table ? 10 : 0), 0)
    return { lines: characters < 10 ? [] : lines }
  })
}

/** The largest image a page draws (its scan when it has no text layer), decoded; undefined if small. */
export function scanImage(engine: Pdfium, document: PdfDocument, index: number): DecodedImage | undefined {
  return withPage(engine, document, index, (page) => {
    const image = largestImage(engine, page)
    if (!image || image.width * image.height < MIN_SCAN_PIXELS) return undefined
    const bitmap = engine.x.FPDFImageObj_GetBitmap(image.object)
    if (!bitmap) return undefined
    return holding(
      engine,
      () => fromBitmap(engine, bitmap),
      () => engine.x.FPDFBitmap_Destroy(bitmap),
    )
  })
}
