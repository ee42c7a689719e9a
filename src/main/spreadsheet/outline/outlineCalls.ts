import type { CellRef } from '../cells/address'
import type { CellInput } from '../cells/writeCell'
import type { OpenWorkbook } from '../workbook/openWorkbook'

/** A write call, kept to replay it on the whole workbook if a later call needs it loaded. */
export interface WriteCall {
  /** exceljs worksheet id and the sheet's name when the call was made. */
  sheetId: number
  sheet: string
  start: CellRef
  values: CellInput[][]
}

/**
 * The writes an outline holds, in order. Rows exceljs holds were written as cells when the call came;
 * the writes to later rows are read from here (the last call that wrote a cell wins) until the save
 * makes them cells.
 */
export class OutlineEdits {
  readonly calls: WriteCall[] = []
  /**
   * Other changes made on the outline (pivot tables on sheets it holds whole), each to be made again on
   * the whole workbook after the first `after` calls.
   */
  readonly replays: { after: number; run: (open: OpenWorkbook) => void }[] = []

  /** What the last call that wrote cell (r, c) of sheet `sheetId` typed there, if one did. */
  written(sheetId: number, r: number, c: number): CellInput | undefined {
    for (let k = this.calls.length - 1; k >= 0; k--) {
      const call = this.calls[k]!
      if (call.sheetId !== sheetId) continue
      const line = call.values[r - call.start.row]
      const j = c - call.start.col
      if (line && j >= 0 && j < line.length) return line[j]
    }
    return undefined
  }
}
