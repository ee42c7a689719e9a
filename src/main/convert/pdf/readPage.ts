import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs'
import { findGridTables } from './gridTables'
import { buildLines } from './lines'
import type { DecodedImage } from './pageImage'
import { extractRules } from './rules'
import type { Line, TextRun } from './types'

export interface PageText {
  /** Empty for a page without a text layer (a scan): its image is read in a second pass. */
  lines: Line[]
}

interface TextItemLike {
  str: string
  transform: number[]
  width: number
  fontName: string
}

interface FontLike {
  name?: string
  bold?: boolean
  black?: boolean
  italic?: boolean
}

// Operator codes from pdf.js's OPS table (stable across 4.x/5.x).
const PAINT_IMAGE = 85
const PAINT_INLINE_IMAGE = 86

function fontStyle(page: PDFPageProxy, fontName: string): { bold: boolean; italic: boolean } {
  try {
    const font = page.commonObjs.get(fontName) as FontLike | undefined
    const name = font?.name ?? ''
    return {
      bold: Boolean(font?.bold || font?.black) || /bold|black|heavy|semibold|demi/i.test(name),
      italic: Boolean(font?.italic) || /italic|oblique/i.test(name),
    }
  } catch {
    return { bold: false, italic: false }
  }
}

async function largestImage(
  page: PDFPageProxy,
  operators: { fnArray: number[]; argsArray: unknown[] },
): Promise<DecodedImage | undefined> {
  let best: { id: string; area: number } | undefined
  for (const [index, op] of operators.fnArray.entries()) {
    if (op !== PAINT_IMAGE && op !== PAINT_INLINE_IMAGE) continue
    const args = operators.argsArray[index] as unknown[]
    const id = args?.[0]
    const width = Number(args?.[1] ?? 0)
    const height = Number(args?.[2] ?? 0)
    if (typeof id === 'string' && width * height > (best?.area ?? 0)) best = { id, area: width * height }
  }
  if (!best || best.area < 200 * 200) return undefined
  const id = best.id
  const store = id.startsWith('g_') ? page.commonObjs : page.objs
  return new Promise((resolve) => {
    try {
      store.get(id, (image: unknown) => resolve(image as DecodedImage))
    } catch {
      resolve(undefined)
    }
  })
}

/** The largest image a page paints (its scan when it has no text layer); needs a document that decodes images. */
export async function scanImage(page: PDFPageProxy): Promise<DecodedImage | undefined> {
  return largestImage(page, await page.getOperatorList())
}

/** Text runs with font styles (fonts are known once the operator list is loaded), grouped into lines. */
export async function readPage(page: PDFPageProxy): Promise<PageText> {
  const operators = await page.getOperatorList()
  const content = await page.getTextContent()
  const top = page.view[3] ?? 0
  const runs: TextRun[] = []
  const styles = new Map<string, { bold: boolean; italic: boolean }>()
  for (const raw of content.items) {
    const item = raw as TextItemLike
    if (typeof item.str !== 'string' || !item.str || !item.transform) continue
    const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0] = item.transform
    if (Math.abs(b) > Math.abs(a) * 0.1 || Math.abs(c) > Math.abs(d) * 0.1) continue
    let style = styles.get(item.fontName)
    if (!style) {
      style = fontStyle(page, item.fontName)
      styles.set(item.fontName, style)
    }
    const size = Math.round(Math.hypot(c, d) * 2) / 2
    if (size <= 0) continue
    runs.push({ text: item.str, x: e, y: top - f, width: item.width, size, ...style })
  }
  const grids = findGridTables(extractRules(operators, top), runs)
  const lines = [
    ...buildLines(runs.filter((run) => !grids.used.has(run))),
    ...grids.tables.map(
      (table): Line => ({
        y: table.top,
        x0: table.left,
        x1: table.right,
        size: 0,
        bold: false,
        segments: [],
        text: '',
        table: table.rows,
      }),
    ),
  ].sort((a, b) => a.y - b.y)
  const characters = lines.reduce((sum, line) => sum + line.text.length + (line.table ? 10 : 0), 0)
  return { lines: characters < 10 ? [] : lines }
}
