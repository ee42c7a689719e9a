import type { Worksheet } from 'exceljs'
import type { Area } from './address'

/** The smallest area holding every cell with a value, or undefined for an empty sheet. */
export function usedArea(ws: Worksheet): Area | undefined {
  let top = 0
  let bottom = 0
  let left = Number.POSITIVE_INFINITY
  let right = 0
  ws.eachRow((row, r) => {
    let any = false
    row.eachCell((cell, c) => {
      if (cell.value === null || cell.value === undefined || cell.value === '') return
      any = true
      if (c < left) left = c
      if (c > right) right = c
    })
    if (!any) return
    if (top === 0) top = r
    bottom = r
  })
  if (top === 0) return undefined
  return { top, bottom, left, right }
}

/** The used area the outline scanned for this sheet (undefined: empty), else the one its cells give. */
export function sheetArea(ws: Worksheet, scanned?: ReadonlyMap<number, Area | undefined>): Area | undefined {
  return scanned?.has(ws.id) ? scanned.get(ws.id) : usedArea(ws)
}
