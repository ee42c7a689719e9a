import type { Worksheet } from 'exceljs'
import { strToU8 } from 'fflate'
import { type Area, areaName, MAX_COLUMNS, MAX_ROWS, parseCell, sheetPrefix } from '../cells/address'
import { usedArea } from '../cells/usedRange'
import { invalidInput } from '../errors'
import {
  declareContentType,
  freePartName,
  nextRelId,
  readRels,
  relativeTarget,
  relKind,
  writeRels,
} from '../ooxml/packageParts'
import { OutlineEdits } from '../outline/outlineCalls'
import type { Outline } from '../outline/outlineWorkbook'
import type { OpenWorkbook } from '../workbook/openWorkbook'
import { validSheetName } from '../workbook/sheetNames'
import {
  computePivot,
  defaultValueName,
  type OutValue,
  type PivotRequest,
  type PivotResult,
  type Summary,
} from './compute'
import type { PivotSource } from './model'
import { numFmtIdIn, type PendingPivot, styleFormats, usedCacheIds } from './package'
import { pivotsInSheet, type SavedPivot } from './read'
import { fieldIndex, readSource, readSourceCells, resolveSource } from './source'
import { BUILTIN_FORMATS, cacheDefinitionXml, cacheRecordsBytes, pivotTableXml } from './xml'

interface Built {
  source: PivotSource
  result: PivotResult
}

/** Reads a request's source. */
type SourceReader = (request: PivotRequest) => PivotSource

function wholeSource(open: OpenWorkbook): SourceReader {
  return (request) => {
    const { ws, area } = resolveSource(open, request.source, undefined)
    return readSource(open, ws, area)
  }
}

function build(request: PivotRequest, name: string, sourceOf: SourceReader): Built {
  const source = sourceOf(request)
  const rows = request.rows.map((f) => fieldIndex(source, f, 'row'))
  const columns = request.columns.map((f) => fieldIndex(source, f, 'column'))
  const fieldNames = new Set(source.fields.map((f) => f.toLowerCase()))
  const taken = new Set<string>()
  const values = request.values.map((v) => {
    const field = fieldIndex(source, v.field, 'value')
    let label = (v.name?.trim() || defaultValueName(v.summary, source.fields[field]!)).trim()
    // Excel refuses a value name equal to a source field's name; a trailing space is its own workaround.
    if (fieldNames.has(label.toLowerCase())) label = `${label} `
    if (taken.has(label.toLowerCase()))
      throw invalidInput(`two values are named "${label.trim()}"; give one of them another name`)
    taken.add(label.toLowerCase())
    return {
      field,
      summary: v.summary,
      name: label,
      ...(v.number_format ? { numberFormat: v.number_format } : {}),
    }
  })
  const filters = request.filters.map((f) => ({
    field: fieldIndex(source, f.field, 'filter'),
    ...(f.include ? { include: f.include.map(String) } : {}),
  }))
  const result = computePivot(source, { name, rows, columns, values, filters })
  return { source, result }
}

/** Cells the computed table covers from `anchor`: page filters, their blank row, the table. */
function gridArea(result: PivotResult, anchor: { row: number; col: number }): Area {
  const width = Math.max(result.tableColumns, result.pageRows > 0 ? 2 : 1)
  return {
    top: anchor.row,
    left: anchor.col,
    bottom: anchor.row + result.grid.length - 1,
    right: anchor.col + width - 1,
  }
}

function tableArea(result: PivotResult, anchor: { row: number; col: number }): Area {
  const top = anchor.row + result.pageRows
  return {
    top,
    left: anchor.col,
    bottom: top + result.tableRows - 1,
    right: anchor.col + result.tableColumns - 1,
  }
}

function overlaps(a: Area, b: Area): boolean {
  return a.left <= b.right && b.left <= a.right && a.top <= b.bottom && b.top <= a.bottom
}

/** The first cell in `area` (outside `except`) that holds something. */
function firstFilled(ws: Worksheet, area: Area, except?: Area): string | undefined {
  for (let r = area.top; r <= Math.min(area.bottom, ws.rowCount); r++) {
    const row = ws.findRow(r)
    if (!row) continue
    for (let c = area.left; c <= area.right; c++) {
      if (except && overlaps(except, { top: r, bottom: r, left: c, right: c })) continue
      const v = row.findCell(c)?.value
      if (v !== null && v !== undefined && v !== '')
        return `${areaName({ top: r, bottom: r, left: c, right: c })}`
    }
  }
  return undefined
}

function writeGrid(ws: Worksheet, grid: (OutValue | null)[][], anchor: { row: number; col: number }): void {
  grid.forEach((line, i) => {
    line.forEach((value, j) => {
      if (value === null || value === undefined) return
      const cell = ws.getCell(anchor.row + i, anchor.col + j)
      if (typeof value === 'object') {
        if ('error' in value) cell.value = { error: value.error } as unknown as number
        else if ('date' in value) {
          cell.value = value.date
          if (value.numFmt) cell.numFmt = value.numFmt
        } else {
          cell.value = value.number
          cell.numFmt = value.numFmt
        }
      } else cell.value = value
    })
  })
}

function clearCells(ws: Worksheet, area: Area): void {
  for (let r = area.top; r <= Math.min(area.bottom, ws.rowCount); r++) {
    const row = ws.findRow(r)
    if (!row) continue
    for (let c = area.left; c <= area.right; c++) {
      const cell = row.findCell(c)
      if (cell && cell.value !== null && cell.value !== undefined) cell.value = null
    }
  }
}

/** Pivot tables on `ws`: those saved in the file and those made since. */
export function sheetPivots(
  open: OpenWorkbook,
  ws: Worksheet,
): { saved: SavedPivot[]; session: PendingPivot[] } {
  const part = open.originalSheetParts.get(ws.id)
  return {
    saved: part ? pivotsInSheet(open.original, part) : [],
    session: open.pivots.filter((p) => p.sheet === ws.name),
  }
}

function allPivotNames(open: OpenWorkbook): Set<string> {
  const names = new Set<string>()
  for (const ws of open.workbook.worksheets) {
    const { saved, session } = sheetPivots(open, ws)
    for (const p of saved) names.add(p.name.toLowerCase())
    for (const p of session) names.add(p.result.spec.name.toLowerCase())
  }
  return names
}

export interface PivotOutcome {
  ws: Worksheet
  area: Area
  name: string
  location: string
  source: string
  records: number
  counted: number
}

/** Makes a pivot table: computes it, writes its cells at the target and keeps its parts for the save. */
export function createPivotTable(
  open: OpenWorkbook,
  request: PivotRequest,
  target: { sheet: string; cell: string },
  sourceOf: SourceReader = wholeSource(open),
): PivotOutcome {
  const names = allPivotNames(open)
  let name = request.name?.trim()
  if (name && names.has(name.toLowerCase()))
    throw invalidInput(`a pivot table named "${name}" already exists`)
  for (let n = 1; !name; n++) if (!names.has(`pivottable${n}`)) name = `PivotTable${n}`
  const { source, result } = build(request, name, sourceOf)
  let anchor: { row: number; col: number }
  try {
    anchor = parseCell(target.cell)
  } catch {
    throw invalidInput(`target cell "${target.cell}" is not a cell such as A3`)
  }
  const area = gridArea(result, anchor)
  if (area.bottom > MAX_ROWS || area.right > MAX_COLUMNS)
    throw invalidInput(`the pivot table (${areaName(area)}) does not fit on the sheet from ${target.cell}`)
  const existing = open.workbook.worksheets.find(
    (w) => w.name.toLowerCase() === target.sheet.trim().toLowerCase(),
  )
  const where = (ws: string) => `${sheetPrefix(ws)}${areaName(area)}`
  if (existing) {
    if (existing.name === source.sheet && overlaps(area, source.area))
      throw invalidInput(
        `the pivot table would cover ${where(existing.name)}, which overlaps its source ${sheetPrefix(source.sheet)}${areaName(source.area)}; put it elsewhere or on a new sheet`,
      )
    const { saved, session } = sheetPivots(open, existing)
    const clash =
      saved.find((p) => overlaps(p.location, area))?.name ??
      session.find((p) => overlaps(gridArea(p.result, p.anchor), area))?.result.spec.name
    if (clash)
      throw invalidInput(`the pivot table would cover ${where(existing.name)}, where pivot table ${clash} is`)
    const filled = firstFilled(existing, area)
    if (filled)
      throw invalidInput(
        `the pivot table needs ${where(existing.name)} empty, but ${filled} holds data; choose another cell or a new sheet`,
      )
  }
  const ws = existing ?? open.workbook.addWorksheet(validSheetName(target.sheet, open.sheetNames()))
  if (!existing) open.structureChanged()
  writeGrid(ws, result.grid, anchor)
  open.changed(ws, area, true)
  const cacheId = Math.max(0, ...usedCacheIds(open.original), ...open.pivots.map((p) => p.cacheId)) + 1
  const location = tableArea(result, anchor)
  const pending: PendingPivot = {
    sheet: ws.name,
    source,
    result,
    location,
    anchor,
    cacheId,
    request: { ...request, name },
  }
  open.pivots.push(pending)
  return {
    ws,
    area,
    name,
    location: areaName(location),
    source: `${sheetPrefix(source.sheet)}${areaName(source.area)}`,
    records: source.records,
    counted: result.counted,
  }
}

/**
 * `createPivotTable` on a workbook read as an outline: the source is read from its sheet's bytes, not
 * from cells, and the table goes to a sheet exceljs holds whole (a new one). Undefined when the request
 * needs the whole load (the target is an outlined sheet, or the source is not readable from its bytes);
 * a bad request throws as `createPivotTable` does.
 */
export async function createPivotOnOutline(
  outline: Outline,
  request: PivotRequest,
  target: { sheet: string; cell: string },
): Promise<PivotOutcome | undefined> {
  const { open } = outline
  const existing = open.workbook.worksheets.find(
    (w) => w.name.toLowerCase() === target.sheet.trim().toLowerCase(),
  )
  if (existing && outline.sheets.has(existing.id)) return undefined
  const used = (ws: Worksheet) => (outline.sheets.has(ws.id) ? outline.areas.get(ws.id) : usedArea(ws))
  const { ws, area } = resolveSource(open, request.source, undefined, used)
  // Loaded on first use: it reads exceljs's number-format helpers, which a start must not load.
  const { outlineCells } = await import('./outlineSource')
  const cells = outlineCells(outline, ws, area)
  if (!cells) return undefined
  const outcome = createPivotTable(open, request, target, () => readSourceCells(ws.name, area, cells))
  outline.edits ??= new OutlineEdits()
  const edits = outline.edits
  const named = { ...request, name: outcome.name }
  edits.replays.push({ after: edits.calls.length, run: (whole) => createPivotTable(whole, named, target) })
  return outcome
}

function requestOfSaved(open: OpenWorkbook, saved: SavedPivot): PivotRequest {
  if (!saved.sourceRef && saved.source === '(external)')
    throw invalidInput(`pivot table ${saved.name} reads an external source; it cannot be refreshed here`)
  const codes = new Map<number, string>()
  for (const [code, id] of Object.entries(BUILTIN_FORMATS)) codes.set(id, code)
  for (const [code, id] of styleFormats(open.original)) codes.set(id, code)
  return {
    source: saved.source,
    name: saved.name,
    rows: saved.rows,
    columns: saved.columns,
    values: saved.values.map((v) => {
      const format = v.numFmtId === undefined ? undefined : codes.get(v.numFmtId)
      return {
        field: v.field,
        summary: v.summary as Summary,
        name: v.name,
        ...(format && format !== 'General' ? { number_format: format } : {}),
      }
    }),
    filters: saved.filters,
  }
}

/** Recomputes a pivot table from its source as it is now: its cells, and its parts (at the next save). */
export function refreshPivotTable(open: OpenWorkbook, ws: Worksheet, name: string | undefined): PivotOutcome {
  const { saved, session } = sheetPivots(open, ws)
  const all = [...session.map((p) => p.result.spec.name), ...saved.map((p) => p.name)]
  if (all.length === 0) throw invalidInput(`sheet "${ws.name}" has no pivot table`)
  const wanted = name?.trim().toLowerCase()
  if (wanted === undefined && all.length > 1)
    throw invalidInput(`sheet "${ws.name}" has several pivot tables (${all.join(', ')}); name one`)
  const pending = session.find((p) => wanted === undefined || p.result.spec.name.toLowerCase() === wanted)
  const old = pending ? undefined : saved.find((p) => wanted === undefined || p.name.toLowerCase() === wanted)
  if (!pending && !old)
    throw invalidInput(`sheet "${ws.name}" has no pivot table named "${name}" (it has ${all.join(', ')})`)
  const request = pending ? pending.request : requestOfSaved(open, old!)
  const pivotName = pending ? pending.result.spec.name : old!.name
  const { source, result } = build(request, pivotName, wholeSource(open))
  const anchor = pending
    ? pending.anchor
    : {
        row: old!.location.top - (old!.pageCount > 0 ? old!.pageCount + 1 : 0),
        col: old!.location.left,
      }
  const before = pending
    ? gridArea(pending.result, pending.anchor)
    : { ...old!.location, top: anchor.row, right: Math.max(old!.location.right, anchor.col + 1) }
  const after = gridArea(result, anchor)
  const filled = firstFilled(ws, after, before)
  if (filled)
    throw invalidInput(
      `the refreshed pivot table needs ${sheetPrefix(ws.name)}${areaName(after)}, but ${filled} holds data; nothing was changed`,
    )
  const location = tableArea(result, anchor)
  if (old) replaceSavedParts(open, old, source, result, location)
  clearCells(ws, before)
  writeGrid(ws, result.grid, anchor)
  if (pending) {
    pending.source = source
    pending.result = result
    pending.location = location
  }
  const changed: Area = {
    top: Math.min(before.top, after.top),
    left: Math.min(before.left, after.left),
    bottom: Math.max(before.bottom, after.bottom),
    right: Math.max(before.right, after.right),
  }
  open.changed(ws, changed, true)
  return {
    ws,
    area: changed,
    name: pivotName,
    location: areaName(location),
    source: `${sheetPrefix(source.sheet)}${areaName(source.area)}`,
    records: source.records,
    counted: result.counted,
  }
}

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'

/** A saved pivot's parts, rewritten in the kept package: the save carries them over as they are. */
function replaceSavedParts(
  open: OpenWorkbook,
  old: SavedPivot,
  source: PivotSource,
  result: PivotResult,
  location: Area,
): void {
  const parts = open.original
  let recordsPart = old.recordsPart
  const cacheRels = readRels(parts, old.cachePart)
  let recordsRel = cacheRels.find((r) => relKind(r.type) === 'pivotCacheRecords')
  if (!recordsPart || !recordsRel) {
    recordsPart = freePartName(parts, 'xl/pivotCache/pivotCacheRecords1.xml')
    recordsRel = {
      id: nextRelId(cacheRels),
      type: `${REL}/pivotCacheRecords`,
      target: relativeTarget(old.cachePart, recordsPart),
      external: false,
    }
    cacheRels.push(recordsRel)
    writeRels(parts, old.cachePart, cacheRels)
    declareContentType(
      parts,
      recordsPart,
      'application/vnd.openxmlformats-officedocument.spreadsheetml.pivotCacheRecords+xml',
    )
  }
  parts[recordsPart] = cacheRecordsBytes(source, result)
  parts[old.cachePart] = strToU8(cacheDefinitionXml(source, result, recordsRel.id))
  parts[old.tablePart] = strToU8(
    pivotTableXml(source, result, { cacheId: old.cacheId, location, numFmtId: numFmtIdIn(parts) }),
  )
}
