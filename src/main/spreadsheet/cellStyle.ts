import type { Cell } from 'exceljs'

/** True when someone chose this cell's look (bold, fill, colour...), which the save pass must not override. */
export function hasExplicitStyle(cell: Cell): boolean {
  const fill = cell.fill as { type?: string; pattern?: string } | undefined
  if (fill && !(fill.type === 'pattern' && (fill.pattern === 'none' || fill.pattern === undefined)))
    return true
  const font = cell.font
  if (font && (font.bold || font.italic || font.underline || font.strike || font.color?.argb)) return true
  return false
}
