import type { Alignment, Borders, Cell, Fill, Font, Worksheet } from 'exceljs'
import { type Area, areaName, columnLetters } from './address'
import { invalidInput } from './errors'
import type { OpenWorkbook } from './openWorkbook'
import { unquoteFormat } from './prepareSave'

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

function eachCell(ws: Worksheet, area: Area, fn: (cell: Cell) => void): void {
  for (let r = area.top; r <= area.bottom; r++)
    for (let c = area.left; c <= area.right; c++) fn(ws.getCell(r, c))
}

/** Applies the given style parts, keeping the others; returns what was applied. */
export function applyStyle(open: OpenWorkbook, ws: Worksheet, area: Area, style: StyleInput): string[] {
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
  eachCell(ws, area, (cell) => {
    if (Object.keys(font).length > 0) cell.font = { ...(cell.font ?? {}), ...font }
    if (fill) cell.fill = fill
    if (border) cell.border = border
    if (Object.keys(alignment).length > 0) cell.alignment = { ...(cell.alignment ?? {}), ...alignment }
  })
  open.changed(ws)
  return applied
}

export function setNumberFormat(open: OpenWorkbook, ws: Worksheet, area: Area, format: string): void {
  const clean = unquoteFormat(format.trim())
  if (!clean) throw invalidInput('format is empty; e.g. "#,##0.00", "0%", "yyyy-mm-dd"')
  eachCell(ws, area, (cell) => {
    cell.numFmt = clean
  })
  open.changed(ws, area)
}

export function formatHeaderRow(open: OpenWorkbook, ws: Worksheet, row: number, lastCol: number): string[] {
  const area = { top: row, bottom: row, left: 1, right: Math.max(lastCol, 1) }
  eachCell(ws, area, (cell) => {
    cell.font = { ...(cell.font ?? {}), bold: true }
    cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFD9E1F2' } }
    cell.border = { ...(cell.border ?? {}), bottom: { style: 'thin', color: { argb: 'FF808080' } } }
    cell.alignment = { ...(cell.alignment ?? {}), vertical: 'middle' }
  })
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
