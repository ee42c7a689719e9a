import type { Alignment, Borders, Fill, Font, Worksheet } from 'exceljs'
import { type Area, areaName, columnLetters, MAX_ROWS } from '../cells/address'
import { type AreaRequest, areaLabel, countText, fitsLimit, refuseLargeArea } from '../cells/areaLimits'
import { type StyledArea, styleArea } from '../cells/areaStyle'
import { restyle, type StylePatch } from '../cells/cellStyle'
import { CellBox, eachExistingCell } from '../cells/sheetCells'
import { invalidInput } from '../errors'
import type { OpenWorkbook } from '../workbook/openWorkbook'
import { unquoteFormat } from '../workbook/prepareSave'

export interface StyleInput {
  bold?: boolean
  italic?: boolean
  underline?: boolean
  font_size?: number
  font_name?: string
  font_color?: string
  fill_color?: string
  border?: 'none' | 'thin' | 'medium' | 'thick' | 'dashed' | 'double'
  border_color?: string
  horizontal_align?: 'left' | 'center' | 'right' | 'fill' | 'justify'
  vertical_align?: 'top' | 'middle' | 'bottom'
  wrap?: boolean
}

/** `#1f77b4`, `1F77B4` or `FF1F77B4` -> ARGB. */
export function argb(color: string): string {
  const hex = color.trim().replace(/^#/, '').toUpperCase()
  if (/^[0-9A-F]{6}$/.test(hex)) return `FF${hex}`
  if (/^[0-9A-F]{8}$/.test(hex)) return hex
  const named: Record<string, string> = {
    BLACK: '000000',
    WHITE: 'FFFFFF',
    RED: 'FF0000',
    GREEN: '00B050',
    BLUE: '0070C0',
    YELLOW: 'FFFF00',
    ORANGE: 'FFC000',
    GREY: '808080',
    GRAY: '808080',
    LIGHTGREY: 'D9D9D9',
    LIGHTGRAY: 'D9D9D9',
  }
  const fromName = named[hex.replace(/\s+/g, '')]
  if (fromName) return `FF${fromName}`
  throw invalidInput(`"${color}" is not a colour; use hex like #1F77B4`)
}

/** Applies the given style parts, keeping the others; returns what was applied. */
export function applyStyle(open: OpenWorkbook, ws: Worksheet, req: AreaRequest, style: StyleInput): string[] {
  const { patch, applied } = stylePatch(style)
  const styled = styleArea(ws, req, patch, 'apply_style')
  open.changed(ws)
  const count = styled.cells.count
  return [
    ...applied,
    ...styled.notes,
    ...(styled.notes.length > 0
      ? [`${countText(count)} existing cell${count === 1 ? '' : 's'} restyled`]
      : []),
  ]
}

function stylePatch(style: StyleInput): { patch: StylePatch; applied: string[] } {
  const font: Partial<Font> = {}
  const applied: string[] = []
  if (style.bold !== undefined) {
    font.bold = style.bold
    applied.push(`bold ${style.bold}`)
  }
  if (style.italic !== undefined) {
    font.italic = style.italic
    applied.push(`italic ${style.italic}`)
  }
  if (style.underline !== undefined) {
    font.underline = style.underline
    applied.push(`underline ${style.underline}`)
  }
  if (style.font_size !== undefined) {
    font.size = style.font_size
    applied.push(`font size ${style.font_size}`)
  }
  if (style.font_name !== undefined) {
    font.name = style.font_name
    applied.push(`font ${style.font_name}`)
  }
  if (style.font_color !== undefined) {
    font.color = { argb: argb(style.font_color) }
    applied.push(`font colour ${style.font_color}`)
  }
  const fill: Fill | undefined = style.fill_color
    ? { type: 'pattern', pattern: 'solid', fgColor: { argb: argb(style.fill_color) } }
    : undefined
  if (fill) applied.push(`fill ${style.fill_color}`)
  let border: Partial<Borders> | undefined
  if (style.border !== undefined) {
    const side =
      style.border === 'none'
        ? {}
        : { style: style.border, color: { argb: argb(style.border_color ?? '000000') } }
    border = { top: side, left: side, bottom: side, right: side } as Partial<Borders>
    applied.push(`border ${style.border}`)
  }
  const alignment: Partial<Alignment> = {}
  if (style.horizontal_align) {
    alignment.horizontal = style.horizontal_align
    applied.push(`align ${style.horizontal_align}`)
  }
  if (style.vertical_align) {
    alignment.vertical = style.vertical_align
    applied.push(`vertical ${style.vertical_align}`)
  }
  if (style.wrap !== undefined) {
    alignment.wrapText = style.wrap
    applied.push(`wrap ${style.wrap}`)
  }
  if (applied.length === 0)
    throw invalidInput('no style given; set e.g. bold, fill_color, border, horizontal_align or wrap')
  const hasFont = Object.keys(font).length > 0
  const hasAlignment = Object.keys(alignment).length > 0
  const patch: StylePatch = (current) => {
    const next = { ...current }
    if (hasFont) next.font = { ...(current.font ?? {}), ...font }
    if (fill) next.fill = fill
    if (border) next.border = border as Borders
    if (hasAlignment) next.alignment = { ...(current.alignment ?? {}), ...alignment }
    return next
  }
  return { patch, applied }
}

/** What set_number_format did, for its receipt. */
export interface NumberFormatOutcome {
  styled: StyledArea
  /** Column or row formats set, or how a huge range was narrowed. */
  notes: string[]
}

/**
 * Sets a number format. A number format only shows on values, so a range too big to fill cell by cell
 * (and not whole columns or rows) formats the cells the sheet holds in it and leaves the empty ones.
 */
export function setNumberFormat(
  open: OpenWorkbook,
  ws: Worksheet,
  req: AreaRequest,
  format: string,
): NumberFormatOutcome {
  const clean = unquoteFormat(format.trim())
  if (!clean) throw invalidInput('format is empty; e.g. "#,##0.00", "0%", "yyyy-mm-dd"')
  const patch: StylePatch = (style) => ({ ...style, numFmt: clean })
  let styled: StyledArea
  const notes: string[] = []
  if (!req.wholeColumns && !req.wholeRows && !fitsLimit(ws, req.area)) {
    const cells = new CellBox()
    eachExistingCell(ws, req.area, (cell, r, c) => {
      restyle(cell, patch)
      cells.add(r, c)
    })
    const columns = areaLabel({ ...req.area, top: 1, bottom: MAX_ROWS })
    if (cells.count === 0)
      refuseLargeArea(ws, req.area, 'set_number_format', {
        held: 0,
        advice: `Format whole columns (${columns}) for values typed there later.`,
      })
    styled = { cells, notes: [] }
    notes.push(
      `only the ${countText(cells.count)} cells of ${areaLabel(req.area)} that the sheet holds were formatted, the empty ones were left alone; format whole columns (${columns}) for values typed there later`,
    )
  } else styled = styleArea(ws, req, patch, 'set_number_format')
  const box = styled.cells.area
  if (box) open.changed(ws, box)
  else open.changed(ws)
  return { styled, notes: [...styled.notes, ...notes] }
}

export function formatHeaderRow(open: OpenWorkbook, ws: Worksheet, row: number, lastCol: number): string[] {
  const area = { top: row, bottom: row, left: 1, right: Math.max(lastCol, 1) }
  for (let c = area.left; c <= area.right; c++)
    restyle(ws.getCell(row, c), (style) => ({
      ...style,
      font: { ...(style.font ?? {}), bold: true },
      fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFD9E1F2' } },
      border: { ...(style.border ?? {}), bottom: { style: 'thin', color: { argb: 'FF808080' } } },
      alignment: { ...(style.alignment ?? {}), vertical: 'middle' },
    }))
  open.changed(ws)
  return [`bold`, `fill #D9E1F2`, `bottom border thin`, `row ${row} columns A:${columnLetters(area.right)}`]
}

export function setColumnWidth(
  open: OpenWorkbook,
  ws: Worksheet,
  from: number,
  to: number,
  width: number,
): void {
  for (let c = from; c <= to; c++) ws.getColumn(c).width = width
  open.changed(ws)
}

export function mergeCells(open: OpenWorkbook, ws: Worksheet, area: Area): void {
  refuseLargeArea(ws, area, 'merge_cells')
  try {
    ws.mergeCells(area.top, area.left, area.bottom, area.right)
  } catch (error) {
    throw invalidInput(`cannot merge ${areaName(area)}: ${(error as Error).message}`)
  }
  open.structureChanged()
}

export function freezePanes(open: OpenWorkbook, ws: Worksheet, row: number, col: number): string {
  const xSplit = col - 1
  const ySplit = row - 1
  ws.views =
    xSplit === 0 && ySplit === 0
      ? [{ state: 'normal' }]
      : [{ state: 'frozen', xSplit, ySplit, topLeftCell: `${columnLetters(col)}${row}` }]
  open.changed(ws)
  if (xSplit === 0 && ySplit === 0) return 'panes unfrozen'
  return `frozen ${ySplit} row(s) and ${xSplit} column(s)`
}
