import type { Workbook, Worksheet } from 'exceljs'
import type { Area } from '../cells/address'
import type { PendingChart } from '../charts/chartPackage'
import type { RefRewrite } from '../charts/chartRefs'
import { sheetNotFound } from '../errors'
import { type CalcReport, recalculate } from '../formulas/formulaEngine'
import { buildFormulaIndex, type FormulaIndex, updateFormulaIndex } from '../formulas/formulaIndex'
import type { SheetMove } from '../ooxml/anchorShift'
import type { Parts } from '../ooxml/packageParts'
import type { PendingPivot } from '../pivot/model'

/** A workbook held in memory between tool calls, with what the save needs to know about it. */
export class OpenWorkbook {
  /** The package as last read or written: the source of parts exceljs cannot carry. */
  original: Parts
  /** exceljs worksheet id -> part name in `original`. */
  originalSheetParts: Map<number, string>
  /** Size in bytes of each part of `original` when it was read (the save's buffer size for a sheet). */
  partSizes = new Map<string, number>()
  charts: PendingChart[] = []
  /** Autofilters set since the last save, per worksheet id: the `<autoFilter>` element with criteria. */
  filters = new Map<number, string>()
  /** Pivot tables made since the last save (their cells are in the sheets already). */
  pivots: PendingPivot[] = []
  /** Reference changes since the last save, applied to carried charts and defined names. */
  rewrites: RefRewrite[] = []
  /** Rows/columns inserted or deleted per worksheet id since the last save (drawings move with them). */
  moves = new Map<number, SheetMove[]>()
  /** Areas the agent wrote, per worksheet id (auto-width and table titles apply there only). */
  readonly touched = new Map<number, Area[]>()
  dirty = false
  private calcStale = true
  private lastCalc: CalcReport = { calculated: 0, uncalculated: [] }
  private formulas: FormulaIndex | undefined

  constructor(
    readonly path: string,
    readonly workbook: Workbook,
    original: Parts,
    originalSheetParts: Map<number, string>,
  ) {
    this.original = original
    this.originalSheetParts = originalSheetParts
  }

  get date1904(): boolean {
    return Boolean((this.workbook.properties as { date1904?: boolean } | undefined)?.date1904)
  }

  sheetNames(): string[] {
    return this.workbook.worksheets.map((ws) => ws.name)
  }

  sheet(name: string): Worksheet {
    const ws =
      this.workbook.worksheets.find((w) => w.name === name) ??
      this.workbook.worksheets.find((w) => w.name.toLowerCase() === name.trim().toLowerCase())
    if (!ws) throw sheetNotFound(name, this.sheetNames())
    return ws
  }

  /**
   * Records a change. With an area: cell values were written there (formulas are recomputed before the
   * next receipt or save). With only a sheet: settings or styles. With nothing: the structure changed.
   * `noFormulas`: the values written there hold no formula.
   */
  changed(ws?: Worksheet, area?: Area, noFormulas = false): void {
    this.dirty = true
    if (!ws) {
      this.structureChanged()
      return
    }
    if (!area) return
    this.calcStale = true
    if (this.formulas) updateFormulaIndex(this.formulas, ws, area, noFormulas)
    const list = this.touched.get(ws.id) ?? []
    list.push(area)
    this.touched.set(ws.id, list)
  }

  /** Rows, columns or sheets moved: the formula index is rebuilt at the next calculation. */
  structureChanged(): void {
    this.dirty = true
    this.calcStale = true
    this.formulas = undefined
  }

  calc(): CalcReport {
    if (this.calcStale) {
      this.formulas ??= buildFormulaIndex(this.workbook)
      this.lastCalc = recalculate(this.workbook, this.date1904, this.formulas)
      this.calcStale = false
    }
    return this.lastCalc
  }
}
