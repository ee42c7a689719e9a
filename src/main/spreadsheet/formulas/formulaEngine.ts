import type { Cell, Workbook, Worksheet } from 'exceljs'
import FormulaParser, { type RangeRef, type SheetPosition } from 'fast-formula-parser'
import { cellName, keyCell } from '../cells/address'
import { dateToSerial, isFormulaCell, plainSnapshot } from '../cells/cellValue'
import { definedNameRef } from './definedNames'
import { forEngine } from './engineFormula'
import { extraFunctions } from './formulaFunctions'
import type { FormulaIndex } from './formulaIndex'
import {
  BudgetMeter,
  type CalcBudget,
  DEFAULT_CALC_BUDGET,
  exceedsTextLimit,
  MAX_TEXT_LENGTH,
} from './formulaLimits'

export interface UncalculatedFormula {
  sheet: string
  cell: string
  reason: string
}

export interface CalcReport {
  calculated: number
  uncalculated: UncalculatedFormula[]
}

interface FormulaNode {
  key: number
  sheet: number
  row: number
  col: number
  cell: Cell
  /** The cell's formula as the engine reads it (see forEngine). */
  formula: string
}

const ROW_FACTOR = 16_384
const SHEET_FACTOR = 2 ** 35

function nodeKey(sheet: number, row: number, col: number): number {
  return sheet * SHEET_FACTOR + row * ROW_FACTOR + col
}

/** Lets the writer keep a 0 / false / "" result (exceljs's value setter drops falsy results). */
function setFormulaResult(cell: Cell, result: unknown): void {
  ;(cell as unknown as { _value: { result: unknown } })._value.result = result
}

function toEngineValue(value: unknown, date1904: boolean): unknown {
  const plain = plainSnapshot(value, date1904)
  if (plain.kind === 'empty') return undefined
  if (plain.kind === 'error') return new FormulaParser.FormulaError(String(plain.value))
  return plain.value
}

function toCellResult(value: unknown, date1904: boolean): unknown {
  let v = value
  while (Array.isArray(v)) v = v[0]
  if (v instanceof FormulaParser.FormulaError) return { error: v.error }
  if (v instanceof Error) return { error: '#VALUE!' }
  if (v instanceof Date) return dateToSerial(v, date1904)
  if (v === null || v === undefined) return 0
  if (typeof v === 'number' && !Number.isFinite(v)) return { error: '#NUM!' }
  if (typeof v === 'object') return { error: '#VALUE!' }
  if (typeof v === 'string' && v.length > MAX_TEXT_LENGTH) return { error: '#VALUE!' }
  return v
}

interface CallInternals {
  _callFunction(name: string, args: unknown[]): unknown
}

/** Every function call checks the budget, and a text result longer than a cell holds is #VALUE!. */
function meterCalls(parser: FormulaParser, meter: BudgetMeter): void {
  const internals = parser as unknown as CallInternals
  const call = internals._callFunction.bind(parser)
  internals._callFunction = (name, args) => {
    meter.tick()
    const result = call(name, args)
    return exceedsTextLimit(result) ? new FormulaParser.FormulaError('#VALUE!') : result
  }
}

class Calculation {
  private readonly sheets: Worksheet[]
  private readonly sheetIndex = new Map<string, number>()
  private readonly nodes = new Map<number, FormulaNode>()
  private readonly bySheet: FormulaNode[][]
  private readonly depsOf = new Map<number, FormulaNode[]>()
  private readonly meter: BudgetMeter

  constructor(
    private readonly workbook: Workbook,
    private readonly date1904: boolean,
    index: FormulaIndex,
    budget: CalcBudget,
  ) {
    this.meter = new BudgetMeter(budget)
    this.sheets = workbook.worksheets
    for (const [i, ws] of this.sheets.entries()) this.sheetIndex.set(ws.name.toLowerCase(), i)
    this.bySheet = this.sheets.map(() => [])
    for (const [s, ws] of this.sheets.entries()) {
      for (const [key, cell] of index.get(ws) ?? []) {
        const { row: r, col: c } = keyCell(key)
        const formula = forEngine(cell.formula)
        const node = { key: nodeKey(s, r, c), sheet: s, row: r, col: c, cell, formula }
        this.nodes.set(node.key, node)
        this.bySheet[s]!.push(node)
      }
    }
  }

  get size(): number {
    return this.nodes.size
  }

  private sheetOf(name: string | undefined, fallback: number): number | undefined {
    if (!name) return fallback
    return this.sheetIndex.get(name.toLowerCase())
  }

  private readonly onVariable = (name: string, sheet: string) => {
    const ref = definedNameRef(this.workbook, name, sheet)
    if (!ref) return undefined
    if (ref.from.row === ref.to.row && ref.from.col === ref.to.col)
      return { sheet: ref.sheet, row: ref.from.row, col: ref.from.col }
    return ref
  }

  /** Formula nodes that `node` reads, by its references. */
  private dependencies(node: FormulaNode, deps: InstanceType<typeof FormulaParser.DepParser>): FormulaNode[] {
    const position = { sheet: this.sheets[node.sheet]!.name, row: node.row, col: node.col }
    const refs = deps.parse(node.formula, position, true)
    const out: FormulaNode[] = []
    for (const ref of refs) {
      const s = this.sheetOf(ref.sheet, node.sheet)
      if (s === undefined) continue
      if ('from' in ref) {
        const area = (ref.to.row - ref.from.row + 1) * (ref.to.col - ref.from.col + 1)
        const list = this.bySheet[s]!
        if (area < list.length) {
          for (let r = ref.from.row; r <= ref.to.row; r++)
            for (let c = ref.from.col; c <= ref.to.col; c++) {
              const dep = this.nodes.get(nodeKey(s, r, c))
              if (dep) out.push(dep)
            }
        } else {
          for (const dep of list)
            if (
              dep.row >= ref.from.row &&
              dep.row <= ref.to.row &&
              dep.col >= ref.from.col &&
              dep.col <= ref.to.col
            )
              out.push(dep)
        }
      } else {
        const dep = this.nodes.get(nodeKey(s, ref.row, ref.col))
        if (dep) out.push(dep)
      }
    }
    return out
  }

  /** Kahn's algorithm over formula cells; what is left over sits on a cycle. */
  private order(report: CalcReport): FormulaNode[] {
    const deps = new FormulaParser.DepParser({ onVariable: this.onVariable })
    const dependents = new Map<number, FormulaNode[]>()
    const pending = new Map<number, number>()
    for (const node of this.nodes.values()) {
      let count = 0
      try {
        const found = this.dependencies(node, deps)
        this.depsOf.set(node.key, found)
        for (const dep of found) {
          if (dep.key === node.key) continue
          count++
          const list = dependents.get(dep.key)
          if (list) list.push(node)
          else dependents.set(dep.key, [node])
        }
      } catch {
        // Unparseable formulas are reported when evaluated.
      }
      pending.set(node.key, count)
    }
    const ready = [...this.nodes.values()].filter((n) => pending.get(n.key) === 0)
    const ordered: FormulaNode[] = []
    for (let i = 0; i < ready.length; i++) {
      const node = ready[i]!
      ordered.push(node)
      for (const next of dependents.get(node.key) ?? []) {
        const left = pending.get(next.key)! - 1
        pending.set(next.key, left)
        if (left === 0) ready.push(next)
      }
    }
    if (ordered.length < this.nodes.size) {
      const done = new Set(ordered.map((n) => n.key))
      for (const node of this.nodes.values())
        if (!done.has(node.key)) report.uncalculated.push(this.issue(node, 'circular reference'))
    }
    return ordered
  }

  private issue(node: FormulaNode, reason: string): UncalculatedFormula {
    return { sheet: this.sheets[node.sheet]!.name, cell: cellName(node.row, node.col), reason }
  }

  private readCell(ws: Worksheet, row: number, col: number): unknown {
    const cell = ws.findCell(row, col)
    if (!cell) return undefined
    if (isFormulaCell(cell)) return toEngineValue(cell.result ?? 0, this.date1904)
    return toEngineValue(cell.value, this.date1904)
  }

  private parser(): FormulaParser {
    const parser = new FormulaParser({
      functions: extraFunctions(),
      onVariable: this.onVariable,
      onCell: (ref: SheetPosition) => {
        const s = this.sheetOf(ref.sheet, -1)
        this.meter.read(1)
        return s === undefined
          ? new FormulaParser.FormulaError('#REF!')
          : this.readCell(this.sheets[s]!, ref.row, ref.col)
      },
      onRange: (ref: RangeRef) => {
        const s = this.sheetOf(ref.sheet, -1)
        if (s === undefined) throw new FormulaParser.FormulaError('#REF!')
        const ws = this.sheets[s]!
        // Whole-column references stop at the last used row and column.
        const bottom = Math.min(ref.to.row, Math.max(ws.rowCount, ref.from.row))
        const right = Math.min(ref.to.col, Math.max(ws.columnCount, ref.from.col))
        this.meter.read(Math.max(0, bottom - ref.from.row + 1) * Math.max(0, right - ref.from.col + 1))
        const rows: unknown[][] = []
        for (let r = ref.from.row; r <= bottom; r++) {
          const line: unknown[] = []
          for (let c = ref.from.col; c <= right; c++) line.push(this.readCell(ws, r, c))
          rows.push(line)
        }
        return rows
      },
    })
    meterCalls(parser, this.meter)
    return parser
  }

  /** The budget ran out: this node and every one after it keep their cached values. */
  private stopAt(ordered: FormulaNode[], from: number, report: CalcReport, reason: string): void {
    for (let i = from; i < ordered.length; i++) report.uncalculated.push(this.issue(ordered[i]!, reason))
  }

  run(): CalcReport {
    const report: CalcReport = { calculated: 0, uncalculated: [] }
    if (this.nodes.size === 0) return report
    const parser = this.parser()
    const failed = new Set<number>()
    const ordered = this.order(report)
    for (const [i, node] of ordered.entries()) {
      const blocker = this.depsOf.get(node.key)?.find((d) => failed.has(d.key))
      if (blocker) {
        failed.add(node.key)
        report.uncalculated.push(
          this.issue(
            node,
            `depends on uncalculated ${this.sheets[blocker.sheet]!.name}!${cellName(blocker.row, blocker.col)}`,
          ),
        )
        continue
      }
      if (/\[\d+\]/.test(node.formula)) {
        failed.add(node.key)
        report.uncalculated.push(this.issue(node, 'refers to another workbook'))
        continue
      }
      try {
        this.meter.tick()
        const position = { sheet: this.sheets[node.sheet]!.name, row: node.row, col: node.col }
        const result = toCellResult(parser.parse(node.formula, position, true), this.date1904)
        if (typeof result === 'string') this.meter.text(result.length)
        setFormulaResult(node.cell, result)
        report.calculated++
      } catch (error) {
        if (this.meter.exceeded) {
          this.stopAt(ordered, i, report, this.meter.exceeded)
          break
        }
        failed.add(node.key)
        report.uncalculated.push(this.issue(node, reasonOf(error)))
      }
    }
    return report
  }
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  const notImplemented = /Function (\S+) is not implemented/.exec(message)
  if (notImplemented) return `function ${notImplemented[1]} is not supported`
  return message.split('\n')[0]!.slice(0, 120) || 'cannot evaluate'
}

/**
 * Computes every formula of the workbook in dependency order (across sheets) and stores the results
 * as the cells' cached values, so other readers see them. Formulas the engine cannot evaluate keep
 * their previous cached value and are reported. A calculation that reads more cells or takes longer
 * than its budget stops there: the formulas not computed yet are reported, nothing is thrown.
 */
export function recalculate(
  workbook: Workbook,
  date1904: boolean,
  index: FormulaIndex,
  budget: CalcBudget = DEFAULT_CALC_BUDGET,
): CalcReport {
  return new Calculation(workbook, date1904, index, budget).run()
}
