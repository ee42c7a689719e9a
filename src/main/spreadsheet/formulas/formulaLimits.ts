import FormulaParser, { type FunctionParam } from 'fast-formula-parser'

/** Excel's limit for the text in one cell; a longer formula result is #VALUE!, as in Excel. */
export const MAX_TEXT_LENGTH = 32_767
/** Excel's limit for BASE's min_length. */
const MAX_BASE_LENGTH = 255
/** The largest array a single function may build (MUNIT). */
const MAX_ARRAY_CELLS = 1_048_576

type FormulaFunction = (...params: FunctionParam[]) => unknown

function scalar(value: unknown): unknown {
  let v = value
  while (Array.isArray(v)) v = v[0]
  return v
}

function scalarText(value: unknown): string {
  const v = scalar(value)
  if (v === undefined || v === null || v instanceof FormulaParser.FormulaError) return ''
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE'
  return String(v)
}

/** The text length of a parameter's value, arrays and ranges summed over their cells. */
function textLength(value: unknown): number {
  if (Array.isArray(value)) {
    let total = 0
    for (const item of value) total += textLength(item)
    return total
  }
  return scalarText(value).length
}

function occurrences(text: string, part: string): number {
  if (part === '') return 0
  let count = 0
  for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + part.length)) count++
  return count
}

const tooLong = () => new FormulaParser.FormulaError('#VALUE!')

function firstError(...values: unknown[]): unknown {
  return values.map(scalar).find((v) => v instanceof FormulaParser.FormulaError)
}

/**
 * REPT as one flat string: the engine's own appends in a loop, which builds a rope of one node per
 * repetition (about 1 MB for 32,767 repetitions of one character, and slow to flatten).
 */
function rept(text?: FunctionParam, times?: FunctionParam): unknown {
  const error = firstError(text?.value, times?.value)
  if (error) return error
  const count = Math.trunc(Number(scalar(times?.value)))
  const value = scalarText(text?.value)
  if (!Number.isFinite(count) || count < 0) return tooLong()
  return value.length * count > MAX_TEXT_LENGTH ? tooLong() : value.repeat(count)
}

/** Checks that look at a function's arguments before it builds a result that could not be kept. */
const preChecks: Record<string, (params: FunctionParam[]) => unknown> = {
  SUBSTITUTE: ([text, old, replacement, instance]) => {
    const source = scalarText(text?.value)
    const from = scalarText(old?.value)
    const to = scalarText(replacement?.value)
    const count = instance && !instance.omitted ? 1 : occurrences(source, from)
    return source.length + count * (to.length - from.length) > MAX_TEXT_LENGTH ? tooLong() : undefined
  },
  CONCAT: (params) => (sumLength(params) > MAX_TEXT_LENGTH ? tooLong() : undefined),
  CONCATENATE: (params) => (sumLength(params) > MAX_TEXT_LENGTH ? tooLong() : undefined),
  TEXTJOIN: (params) => (sumLength(params.slice(2)) > MAX_TEXT_LENGTH ? tooLong() : undefined),
  BASE: ([, , minLength]) =>
    Number(scalar(minLength?.value)) > MAX_BASE_LENGTH ? new FormulaParser.FormulaError('#NUM!') : undefined,
  MUNIT: ([dimension]) => {
    const n = Number(scalar(dimension?.value))
    return !Number.isFinite(n) || n * n > MAX_ARRAY_CELLS ? tooLong() : undefined
  },
}

/**
 * Text functions whose result is the first error among their arguments (ranges included), as in
 * Excel: `LEN(1/0)` is #DIV/0!, not the length of the text "#DIV/0!".
 */
const TEXT_FUNCTIONS = [
  'LEN',
  'LENB',
  'UPPER',
  'LOWER',
  'PROPER',
  'TRIM',
  'CLEAN',
  'LEFT',
  'LEFTB',
  'RIGHT',
  'RIGHTB',
  'MID',
  'MIDB',
  'REPLACE',
  'REPLACEB',
  'SUBSTITUTE',
  'FIND',
  'FINDB',
  'SEARCH',
  'SEARCHB',
  'EXACT',
  'CODE',
  'UNICODE',
  'CHAR',
  'UNICHAR',
  'TEXT',
  'CONCAT',
  'CONCATENATE',
  'TEXTJOIN',
  'VALUE',
  'NUMBERVALUE',
  'FIXED',
  'DOLLAR',
  'T',
  'ASC',
  'DBCS',
  'BAHTTEXT',
  'TEXTBEFORE',
  'TEXTAFTER',
]

function errorIn(value: unknown): unknown {
  if (value instanceof FormulaParser.FormulaError) return value
  if (!Array.isArray(value)) return undefined
  for (const item of value) {
    const error = errorIn(item)
    if (error) return error
  }
  return undefined
}

function argumentError(params: FunctionParam[]): unknown {
  for (const p of params) {
    const error = p && !p.omitted ? errorIn(p.value) : undefined
    if (error) return error
  }
  return undefined
}

function sumLength(params: FunctionParam[]): number {
  let total = 0
  for (const p of params) total += textLength(p.value)
  return total
}

/** Adds the argument checks to the functions that can build a result from almost nothing. */
export function withPreChecks(
  functions: Record<string, FormulaFunction>,
  engineOwn: Record<string, FormulaFunction>,
): Record<string, FormulaFunction> {
  const out: Record<string, FormulaFunction> = { ...functions, REPT: rept }
  for (const [name, check] of Object.entries(preChecks)) {
    const fn = functions[name] ?? engineOwn[name]
    if (!fn) continue
    out[name] = (...params) => check(params) ?? fn(...params)
  }
  for (const name of TEXT_FUNCTIONS) {
    const fn = out[name] ?? engineOwn[name]
    if (!fn) continue
    out[name] = (...params) => argumentError(params) ?? fn(...params)
  }
  return out
}

/** True when a result holds text longer than a cell can keep. */
export function exceedsTextLimit(value: unknown): boolean {
  if (typeof value === 'string') return value.length > MAX_TEXT_LENGTH
  if (!Array.isArray(value)) return false
  for (const item of value) if (exceedsTextLimit(item)) return true
  return false
}

export interface CalcBudget {
  /** Cell values read by formulas (a range counts each of its cells) in one calculation. */
  maxCellReads: number
  /** Characters of text in the results of one calculation (each result is at most 32,767). */
  maxTextChars: number
  /** Time for one calculation, in milliseconds. */
  maxMilliseconds: number
  now: () => number
}

export const DEFAULT_CALC_BUDGET: CalcBudget = {
  maxCellReads: 50_000_000,
  maxTextChars: 128_000_000,
  maxMilliseconds: 30_000,
  now: () => performance.now(),
}

/**
 * Thrown from inside the engine to stop a calculation that went over its budget. Private: the formula
 * library may wrap it, so the engine reads `BudgetMeter.exceeded` rather than catching this class.
 */
class CalcBudgetExceeded extends Error {}

export class BudgetMeter {
  private reads = 0
  private chars = 0
  private readonly deadline: number
  /** Set once the budget ran out: the error may reach the caller wrapped by the engine. */
  exceeded: string | undefined

  constructor(private readonly budget: CalcBudget) {
    this.deadline = budget.now() + budget.maxMilliseconds
  }

  private stop(reason: string): never {
    this.exceeded = reason
    throw new CalcBudgetExceeded(reason)
  }

  /** Counts cells about to be read, before anything is allocated for them. */
  read(cells: number): void {
    this.reads += cells
    if (this.reads > this.budget.maxCellReads)
      this.stop(`calculation stopped: formulas read more than ${this.budget.maxCellReads} cells`)
    this.tick()
  }

  /** Counts the text of a result about to be stored. */
  text(length: number): void {
    this.chars += length
    if (this.chars > this.budget.maxTextChars)
      this.stop(
        `calculation stopped: formula results hold more than ${this.budget.maxTextChars} characters of text`,
      )
  }

  tick(): void {
    if (this.exceeded) throw new CalcBudgetExceeded(this.exceeded)
    if (this.budget.now() > this.deadline)
      this.stop(`calculation stopped: it took more than ${this.budget.maxMilliseconds / 1000} s`)
  }
}
