import type { Area } from '../cells/address'
import type { ReadContext } from '../ooxml/exceljsLoad'
import {
  compressedParts,
  type Parts,
  partText,
  readRels,
  relKind,
  workbookSheets,
} from '../ooxml/packageParts'
import { loadPartsReading, readWorkbookPackage } from '../workbook/loadWorkbook'
import type { OpenWorkbook } from '../workbook/openWorkbook'
import type { OutlineEdits } from './outlineCalls'
import { HEAD_ROWS, type SheetScan, scanSheet, sharedStringsInfo } from './sheetScan'

/**
 * A workbook opened for reading its outline only (`open`, `describe_worksheet`): exceljs loads every
 * part, but of each worksheet's rows only the first ones `describe` reads; the used area comes from a
 * scan of the rows' bytes. It is never edited or saved: the first other method loads the workbook whole.
 */
export interface Outline {
  open: OpenWorkbook
  /** Used area per exceljs worksheet id, for the sheets whose rows were scanned instead of loaded. */
  areas: Map<number, Area | undefined>
  /** The scanned sheets by exceljs worksheet id: their bytes, for rows that were not loaded. */
  sheets: Map<number, OutlineSheet>
  read: ReadContext
  /** Writes made without loading the cells (outlineEdits.ts), once there is one. */
  edits?: OutlineEdits
}

/** A worksheet whose rows past `lastLoadedRow` stay bytes. */
export interface OutlineSheet {
  part: string
  /**
   * Its rows can be written and saved without loading the rest: nothing in another part belongs to
   * cells (comments and other relationships than drawings, tables and printer settings leave the sheet
   * to the whole load).
   */
  editable: boolean
  /** The part as read. */
  xml: Uint8Array
  scan: SheetScan
  /** exceljs holds the rows numbered up to this one (describe's); the later ones are only in `xml`. */
  lastLoadedRow: number
}

/** Relationships of a sheet that say nothing about single cells. */
const CELL_FREE_RELS = new Set(['drawing', 'table', 'printerSettings'])

/** Worksheet parts exceljs 4.4.0 reads (it matches part names, not relationships). */
const EXCELJS_SHEET = /^xl\/worksheets\/sheet\d+\.xml$/

/** The part without the rows between `headEnd` and `end` (the close of sheetData and what follows stay). */
function reduced(bytes: Uint8Array, headEnd: number, end: number): Uint8Array {
  const out = new Uint8Array(headEnd + (bytes.byteLength - end))
  out.set(bytes.subarray(0, headEnd), 0)
  out.set(bytes.subarray(end), headEnd)
  return out
}

/**
 * The outline of the workbook in `bytes`; or, when a worksheet is not a plain data sheet (the scan
 * cannot promise exceljs's answer), the package's parts as read, for the whole load to use instead of
 * inflating the package again; or undefined when the package is not one the scan reads (the whole load
 * reads it and reports why).
 */
export async function loadOutline(
  path: string,
  bytes: Uint8Array,
): Promise<Outline | { parts: Parts } | undefined> {
  let original: Parts
  try {
    original = readWorkbookPackage(path, bytes)
  } catch {
    return undefined
  }
  const shared = sharedStringsInfo(partText(original, 'xl/sharedStrings.xml'))
  const kept = compressedParts(bytes, original)
  const forExcel: Parts = { ...original }
  const scanned = new Map<string, OutlineSheet>()
  for (const sheet of workbookSheets(original)) {
    const part = original[sheet.part]
    if (sheet.kind !== 'worksheet' || !part || !EXCELJS_SHEET.test(sheet.part)) continue
    const scan = scanSheet(part, shared)
    // `forExcel` is a copy: the parts as read are whole. Rows out of order would put rows describe
    // reads past the ones kept for exceljs: such a sheet is loaded whole.
    if (!scan?.rows.ordered) return { parts: original }
    forExcel[sheet.part] = reduced(part, scan.headEnd, scan.dataEnd)
    const lastLoadedRow =
      scan.headEnd < scan.dataEnd && scan.area ? scan.area.top + HEAD_ROWS : Number.POSITIVE_INFINITY
    const editable =
      scan.rows.ordered &&
      readRels(original, sheet.part).every((rel) => CELL_FREE_RELS.has(relKind(rel.type)))
    scanned.set(sheet.part, { part: sheet.part, editable, xml: part, scan, lastLoadedRow })
    // The outline keeps the part inflated anyway: the save's carry-over reads it there, not inflated again.
    kept[sheet.part] = part
  }
  const loaded = await loadPartsReading(path, kept, forExcel).catch(() => undefined)
  if (!loaded) return undefined
  const { open, read } = loaded
  const areas = new Map<number, Area | undefined>()
  const sheets = new Map<number, OutlineSheet>()
  for (const [id, part] of open.originalSheetParts) {
    const sheet = scanned.get(part)
    if (!sheet) continue
    areas.set(id, sheet.scan.area)
    sheets.set(id, sheet)
  }
  return { open, areas, sheets, read }
}
