import type { Worksheet } from 'exceljs'
import { isFormulaCell } from '../cells/cellValue'

export function countFormulas(ws: Worksheet): number {
  let count = 0
  ws.eachRow((row) =>
    row.eachCell((cell) => {
      if (isFormulaCell(cell)) count++
    }),
  )
  return count
}
