import { strFromU8, strToU8 } from 'fflate'
import { damagedZip, notAWorkbook } from '../errors'
import { loadExceljsParts, type ReadContext } from '../ooxml/exceljsLoad'
import { compressedParts, type Parts, readPackage, workbookSheets } from '../ooxml/packageParts'
import { findMalformedPart } from '../ooxml/verifyPackage'
import { damagedMember } from '../ooxml/zipCheck'
import { installCompactCells } from '../outline/compactCells'
import { OpenWorkbook } from './openWorkbook'

/** Data validations over more cells than this make exceljs expand them cell by cell (it hangs). */
const MAX_VALIDATION_CELLS = 1_000_000

function sqrefCells(sqref: string): number {
  let total = 0
  for (const part of sqref.trim().split(/\s+/)) {
    const [a, b = a] = part.split(':')
    const cell = (s: string) => {
      const m = /^\$?([A-Z]+)\$?(\d+)$/i.exec(s)
      if (!m) return { r: 1, c: 1 }
      let c = 0
      for (const ch of m[1]!.toUpperCase()) c = c * 26 + ch.charCodeAt(0) - 64
      return { r: Number(m[2]), c }
    }
    const x = cell(a!)
    const y = cell(b!)
    total += (Math.abs(y.r - x.r) + 1) * (Math.abs(y.c - x.c) + 1)
  }
  return total
}

const VALIDATIONS = Buffer.from('<dataValidations')

/**
 * Hides from exceljs what it cannot load (huge validation ranges); those elements stay in the
 * original package and the save carries them through verbatim.
 */
function sanitizeForExceljs(parts: Parts): boolean {
  let changed = false
  for (const sheet of workbookSheets(parts)) {
    const bytes = parts[sheet.part]
    if (
      !bytes ||
      sheet.kind !== 'worksheet' ||
      !Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(VALIDATIONS)
    )
      continue
    const xml = strFromU8(bytes)
    const block = /<dataValidations\b[\s\S]*?<\/dataValidations>/.exec(xml)
    if (!block) continue
    const huge = [...block[0].matchAll(/\bsqref="([^"]+)"/g)].some(
      (m) => sqrefCells(m[1]!) > MAX_VALIDATION_CELLS,
    )
    if (!huge) continue
    parts[sheet.part] = strToU8(xml.slice(0, block.index) + xml.slice(block.index + block[0].length))
    changed = true
  }
  return changed
}

interface ExcelModule {
  Workbook: new () => import('exceljs').Workbook
}

async function exceljs(): Promise<ExcelModule> {
  const [mod] = await Promise.all([
    import('exceljs') as unknown as Promise<ExcelModule & { default?: ExcelModule }>,
    installCompactCells(),
  ])
  return mod.default ?? mod
}

/** Images stay in the original drawings, which the save carries; exceljs must not write them twice. */
function detachMedia(workbook: import('exceljs').Workbook): void {
  for (const ws of workbook.worksheets) (ws as unknown as { _media: unknown[] })._media = []
  ;(workbook as unknown as { media: unknown[] }).media = []
}

/** The package as read, checked to be a workbook. */
export function readWorkbookPackage(path: string, bytes: Uint8Array): Parts {
  let original: Parts
  try {
    original = readPackage(bytes)
  } catch {
    throw notAWorkbook(path, 'it is not a zip package')
  }
  if (damagedMember(bytes, original)) throw damagedZip(path)
  if (workbookSheets(original).length === 0) throw notAWorkbook(path, 'it has no workbook part or no sheets')
  return original
}

/** The workbook in `bytes`; `read` is its package as `readWorkbookPackage` read it, if that was done. */
export async function loadWorkbook(path: string, bytes: Uint8Array, read?: Parts): Promise<OpenWorkbook> {
  const forExcel = read ?? readWorkbookPackage(path, bytes)
  return loadParts(path, compressedParts(bytes, forExcel), forExcel)
}

/**
 * Loads `forExcel` (the package's parts, some of them reduced; consumed by the load) with exceljs; `kept`
 * is the package as read (`compressedParts`), held by the workbook for the save's carry-over.
 */
export async function loadParts(path: string, kept: Parts, forExcel: Parts): Promise<OpenWorkbook> {
  return (await loadPartsReading(path, kept, forExcel)).open
}

/** `loadParts`, with what exceljs parsed of the styles and shared strings (an outline reads rows with it). */
export async function loadPartsReading(
  path: string,
  kept: Parts,
  forExcel: Parts,
): Promise<{ open: OpenWorkbook; read: ReadContext }> {
  const sheets = workbookSheets(kept)
  const partSizes = new Map(Object.entries(forExcel).map(([name, part]) => [name, part.byteLength]))
  sanitizeForExceljs(forExcel)
  const { Workbook } = await exceljs()
  const workbook = new Workbook()
  let read: ReadContext
  try {
    read = await loadExceljsParts(workbook, forExcel)
  } catch (error) {
    const bad = findMalformedPart(kept)
    const message = (error as Error).message
    throw notAWorkbook(
      path,
      bad ? `${bad.part} is not well-formed XML` : message.split('\n')[0]!.slice(0, 120),
    )
  }
  if (workbook.worksheets.length === 0) throw notAWorkbook(path, 'no worksheet could be read')
  detachMedia(workbook)
  if (!workbook.properties) (workbook as unknown as { properties: object }).properties = {}
  const byName = new Map(sheets.map((s) => [s.name, s.part]))
  const sheetParts = new Map<number, string>()
  for (const ws of workbook.worksheets) {
    const part = byName.get(ws.name)
    if (part) sheetParts.set(ws.id, part)
  }
  const open = new OpenWorkbook(path, workbook, kept, sheetParts)
  open.partSizes = partSizes
  open.calc()
  return { open, read }
}

export async function createWorkbook(path: string, sheet: string): Promise<OpenWorkbook> {
  const { Workbook } = await exceljs()
  const workbook = new Workbook()
  workbook.addWorksheet(sheet)
  const open = new OpenWorkbook(path, workbook, {}, new Map())
  open.changed()
  return open
}
