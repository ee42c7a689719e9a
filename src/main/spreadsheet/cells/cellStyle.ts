import type { Cell, Row, Style } from 'exceljs'

/** True when someone chose this cell's look (bold, fill, colour...), which the save pass must not override. */
export function hasExplicitStyle(cell: Cell): boolean {
  const fill = cell.fill as { type?: string; pattern?: string } | undefined
  if (fill && !(fill.type === 'pattern' && (fill.pattern === 'none' || fill.pattern === undefined)))
    return true
  const font = cell.font
  if (font && (font.bold || font.italic || font.underline || font.strike || font.color?.argb)) return true
  return false
}

export type StylePatch = (style: Partial<Style>) => Partial<Style>

/**
 * Changes a cell's style through a fresh object: exceljs gives every cell it loaded with the same style id
 * one shared style object, so setting `cell.font` or `cell.numFmt` would restyle all of those cells.
 */
export function restyle(cell: Cell, patch: StylePatch): void {
  cell.style = patch(cell.style ?? {}) as Style
}

export function hasStyle(style: Partial<Style> | undefined): boolean {
  if (!style) return false
  for (const key in style) if (style[key as keyof Style] !== undefined) return true
  return false
}

/** exceljs keeps a row's own style on `row.style`; its typings leave it out. */
interface StyledRow {
  style?: Partial<Style>
}

export function rowStyle(row: Row): Partial<Style> {
  return (row as unknown as StyledRow).style ?? {}
}

export function setRowStyle(row: Row, style: Partial<Style>): void {
  ;(row as unknown as StyledRow).style = style
}
