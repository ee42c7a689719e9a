import { saveRefused } from '../errors'
import { applyFilters } from '../filters/package'
import type { UncalculatedFormula } from '../formulas/formulaEngine'
import { compressedParts, workbookSheets, writePackage } from '../ooxml/packageParts'
import { preservePackage } from '../ooxml/preservePackage'
import { fixSheetTails } from '../ooxml/sheetTail'
import { verifyPackage, zipMismatch } from '../ooxml/verifyPackage'
import { type SheetTransform, writeWorkbookParts } from '../ooxml/writeWorkbookParts'
import { addPivotsToPackage } from '../pivot/package'
import type { OpenWorkbook } from './openWorkbook'
import { type OutsideWidths, type PassReport, prepareSave } from './prepareSave'
import { checkReopens } from './reopenCheck'

/** The one place bytes reach the disk: the workspace's atomic write with backup and history. */
export type WriteBytes = (path: string, bytes: Uint8Array) => Promise<{ backup?: string; version?: string }>

export interface SaveReport {
  path: string
  bytes: number
  backup?: string
  version?: string
  /** Parts and elements carried over from the original that exceljs would have dropped. */
  carried: string[]
  charts: number
  pass: PassReport
  uncalculated: UncalculatedFormula[]
  /** Every XML part parsed, the structure holds, the zip reads back as verified and the workbook reopens (`checkReopens`). */
  verified: 'reopened'
}

/** For a workbook exceljs holds only part of (an outline): the rest of its rows. */
export interface SaveOptions {
  /** Widths the pass sizes columns to, from the rows exceljs does not hold. */
  outside?: OutsideWidths
  /** Adds those rows to the sheets exceljs wrote. */
  transform?: SheetTransform
}

/**
 * Pass, compute, write with exceljs, carry what exceljs dropped, verify (every XML part parses, the
 * structure holds, the workbook reopens), and only then hand the bytes to `write`.
 */
export async function saveWorkbook(
  open: OpenWorkbook,
  target: string,
  write: WriteBytes,
  options: SaveOptions = {},
): Promise<SaveReport> {
  const pass = prepareSave(open, options.outside)
  const calc = open.calc()
  // A workbook read without a theme has `_themes = {}`: exceljs then links a theme it never writes.
  const themed = open.workbook as unknown as { _themes?: Record<string, unknown> }
  if (themed._themes && Object.keys(themed._themes).length === 0) themed._themes = undefined
  open.workbook.calcProperties = { ...(open.workbook.calcProperties ?? {}), fullCalcOnLoad: true }
  // The parts exceljs writes, without its zip (archiver zips once, after the carry-over).
  const out = await writeWorkbookParts(
    open.workbook,
    (id) => {
      const part = open.originalSheetParts.get(id)
      return part ? open.partSizes.get(part) : undefined
    },
    options.transform,
  )
  const originalSheetParts = new Map<string, string>()
  for (const ws of open.workbook.worksheets) {
    const part = open.originalSheetParts.get(ws.id)
    if (part) originalSheetParts.set(ws.name, part)
  }
  const { carried } = preservePackage(
    {
      original: open.original,
      originalSheetParts,
      charts: open.charts,
      rewrites: open.rewrites,
      moves: new Map(open.workbook.worksheets.map((ws) => [ws.name, open.moves.get(ws.id) ?? []])),
    },
    out,
  )
  fixSheetTails(out)
  addPivotsToPackage(out, open.pivots)
  applyFilters(
    out,
    open.original,
    open.workbook.worksheets.map((ws) => ({
      sheet: ws.name,
      xml: open.filters.get(ws.id),
      originalPart: open.originalSheetParts.get(ws.id),
    })),
  )
  verifyPackage(out, (why) => saveRefused(target, why))
  const bytes = await writePackage(out)
  const mismatch = zipMismatch(bytes, out)
  if (mismatch) throw saveRefused(target, `the zip does not read back as written (${mismatch})`)
  await checkReopens(target, out)
  const receipt = await write(target, bytes)
  const charts = open.charts.length
  open.original = compressedParts(bytes, out)
  open.partSizes = new Map(Object.entries(out).map(([name, part]) => [name, part.byteLength]))
  const partByName = new Map(workbookSheets(out).map((s) => [s.name, s.part]))
  open.originalSheetParts = new Map(
    open.workbook.worksheets.flatMap((ws) => {
      const part = partByName.get(ws.name)
      return part ? [[ws.id, part] as [number, string]] : []
    }),
  )
  open.charts = []
  open.pivots = []
  open.filters.clear()
  open.rewrites = []
  open.moves.clear()
  open.dirty = false
  open.touched.clear()
  return {
    path: target,
    bytes: bytes.byteLength,
    ...receipt,
    carried,
    charts,
    pass,
    uncalculated: calc.uncalculated,
    verified: 'reopened',
  }
}
