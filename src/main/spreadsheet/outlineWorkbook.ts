import type { Area } from './address'
import { loadParts, readWorkbookPackage } from './loadWorkbook'
import type { OpenWorkbook } from './openWorkbook'
import { compressedParts, type Parts, partText, workbookSheets } from './packageParts'
import { scanSheet, sharedStringsInfo } from './sheetScan'

/**
 * A workbook opened for reading its outline only (`open`, `describe_worksheet`): exceljs loads every
 * part, but of each worksheet's rows only the first ones `describe` reads; the used area comes from a
 * scan of the rows' bytes. It is never edited or saved: the first other method loads the workbook whole.
 */
export interface Outline {
  open: OpenWorkbook
  /** Used area per exceljs worksheet id, for the sheets whose rows were scanned instead of loaded. */
  areas: Map<number, Area | undefined>
}

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
  const scanned = new Map<string, Area | undefined>()
  for (const sheet of workbookSheets(original)) {
    const part = original[sheet.part]
    if (sheet.kind !== 'worksheet' || !part || !EXCELJS_SHEET.test(sheet.part)) continue
    const scan = scanSheet(part, shared)
    // `forExcel` is a copy: the parts as read are whole.
    if (!scan) return { parts: original }
    forExcel[sheet.part] = reduced(part, scan.headEnd, scan.dataEnd)
    scanned.set(sheet.part, scan.area)
  }
  const open = await loadParts(path, kept, forExcel).catch(() => undefined)
  if (!open) return undefined
  const areas = new Map<number, Area | undefined>()
  for (const [id, part] of open.originalSheetParts) if (scanned.has(part)) areas.set(id, scanned.get(part))
  return { open, areas }
}
