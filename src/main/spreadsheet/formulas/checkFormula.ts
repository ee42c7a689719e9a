import type FormulaParser from 'fast-formula-parser'
import type { ParserError, RangeRef, SheetPosition } from 'fast-formula-parser'
import { lazyLibrary } from '../../tools'
import { cellName, MAX_COLUMNS, MAX_ROWS } from '../cells/address'
import { invalidInput } from '../errors'
import { forEngine } from './engineFormula'

// fast-formula-parser and chevrotain take about 250 ms to load: not before the first formula.
const formulaParser = lazyLibrary<typeof FormulaParser>('fast-formula-parser')

/** Excel refuses longer formulas. */
const MAX_FORMULA_LENGTH = 8192

const TOKEN_TEXT: Record<string, string> = {
  CloseParen: ')',
  OpenParen: '(',
  CloseCurlyParen: '}',
  OpenCurlyParen: '{',
  Comma: ',',
  Semicolon: ';',
  Colon: ':',
  ExclamationMark: '!',
}

/** Refusals listed in one error; the rest are counted. */
const MAX_LISTED = 3

/** Where a formula is going: its sheet (relative references resolve there) and a label for messages. */
export interface FormulaTarget {
  sheet: string
  /** A cell ("B4") or the parameter it came from ("value2", "source"). */
  label: string
}

/** What the model may do instead, appended to every refusal. */
export type FormulaHint = 'text' | 'formula'

const HINTS: Record<FormulaHint, string> = {
  text: " To store the text itself, start it with an apostrophe ('=...).",
  formula: ' Correct the formula and try again.',
}

interface Problem {
  /** "does not parse: missing ")" at the end", "is a DDE link ..." */
  what: string
  /** Whether the apostrophe hint helps (a broken formula) or not (a formula for the wrong place). */
  hint: boolean
}

function quoted(text: string): string {
  return `"${text.length > 60 ? `${text.slice(0, 57)}...` : text}"`
}

/** Text outside string literals and quoted sheet names; both are blanked so their content cannot match. */
function codeOnly(formula: string): string {
  return formula.replace(/"(?:[^"]|"")*"?|'(?:[^']|'')*'?/g, (s) => ' '.repeat(s.length))
}

/** Links to other programs or workbooks: the engine cannot represent them and Excel asks to update them. */
function externalProblem(formula: string): Problem | undefined {
  const code = codeOnly(formula)
  if (code.includes('|'))
    return {
      what: 'is a DDE link to another program (program|topic!item); Bureau does not write those',
      hint: true,
    }
  // Sheet names cannot hold brackets, so a bracket inside a quoted sheet name is a workbook too.
  const withSheets = formula.replace(/"(?:[^"]|"")*"?/g, (s) => ' '.repeat(s.length))
  const table = /[A-Za-z_\\][\w.]*\[/.exec(code)
  if (table)
    return {
      what: `uses a table reference (${table[0]}...), which the formula engine cannot read; use the cell range instead (e.g. B2:B20)`,
      hint: false,
    }
  if (withSheets.includes('['))
    return {
      what: 'refers to another workbook; only references inside this workbook can be written',
      hint: false,
    }
  return undefined
}

function before(text: string, offset: number): string {
  const head = text.slice(0, offset).trimEnd()
  if (head === '') return 'at the start'
  return `after ${quoted(head.length > 20 ? `...${head.slice(-20)}` : head)}`
}

/** The first parse error in words: what was expected or found, and where. */
function describeParseError(error: ParserError, text: string): string {
  const token = error.token
  const atEnd = !token || token.image === '' || Number.isNaN(token.startOffset)
  if (atEnd) {
    const expected = /Expecting token of type --> (\w+) <--/.exec(error.message)?.[1]
    const close = expected ? TOKEN_TEXT[expected] : undefined
    if (close) return `missing "${close}" at the end`
    return `it ends ${before(text, text.length)} where a value or reference is expected`
  }
  const why = `unexpected "${token.image}" ${before(text, token.startOffset)}`
  return token.image === ';' ? `${why} (separate arguments with commas)` : why
}

function lexProblem(details: unknown, text: string): string | undefined {
  const lex = details as { offset?: unknown; token?: unknown } | undefined
  if (!lex || typeof lex.offset !== 'number' || 'token' in lex) return undefined
  const char = text.charAt(lex.offset)
  if (char === '"') return `the text in quotes ${before(text, lex.offset)} is not closed with "`
  return `unexpected character "${char}" ${before(text, lex.offset)}`
}

function outsideSheet(ref: SheetPosition | RangeRef): boolean {
  const far = 'to' in ref ? ref.to : ref
  return far.row > MAX_ROWS || far.col > MAX_COLUMNS
}

/**
 * Checks formulas before they are written, with the formula engine's own parser (its DepParser:
 * syntax and references only, nothing is evaluated). A formula that parses but calls a function the
 * engine lacks passes: it is written and listed as uncalculated.
 */
export class FormulaChecker {
  private deps: InstanceType<typeof FormulaParser.DepParser> | undefined

  constructor(private readonly sheets: readonly string[]) {}

  /** Why `formula` (without the leading "=") cannot be written, or undefined when it can. */
  private problem(formula: string, sheet: string): Problem | undefined {
    if (formula.trim() === '') return { what: 'is empty', hint: false }
    if (formula.length > MAX_FORMULA_LENGTH)
      return { what: `is longer than ${MAX_FORMULA_LENGTH} characters`, hint: true }
    const external = externalProblem(formula)
    if (external) return external
    const text = forEngine(formula)
    this.deps ??= new (formulaParser().DepParser)()
    let refs: Array<SheetPosition | RangeRef>
    try {
      refs = this.deps.parse(text, { sheet, row: 1, col: 1 }, false)
    } catch (error) {
      const details = (error as { details?: unknown }).details
      const lexed = lexProblem(details, text)
      if (lexed) return { what: `does not parse: ${lexed}`, hint: true }
      const parseError = this.deps.parser.errors[0]
      if (parseError) return { what: `does not parse: ${describeParseError(parseError, text)}`, hint: true }
      // The grammar accepted it; what the DepParser stumbled on is the engine's to report.
      return undefined
    }
    for (const ref of refs) {
      if (outsideSheet(ref))
        return {
          what: `refers to a cell outside the sheet (the last cell is ${cellName(MAX_ROWS, MAX_COLUMNS)})`,
          hint: true,
        }
      const name = ref.sheet
      if (name !== undefined && !this.sheets.some((s) => s.toLowerCase() === name.toLowerCase()))
        return {
          what: `refers to sheet "${name}", which does not exist; sheets: ${this.sheets.join(', ')}`,
          hint: false,
        }
    }
    return undefined
  }

  /** The refusal for `formula` (without the leading "=") going to `where.label`, or undefined when it can be written. */
  refusal(formula: string, where: FormulaTarget, hint: FormulaHint): string | undefined {
    const problem = this.problem(formula, where.sheet)
    if (!problem) return undefined
    const tail = problem.hint ? HINTS[hint] : ''
    return `Formula ${quoted(`=${formula}`)} in ${where.label} ${problem.what}.${tail}`
  }

  /**
   * Throws a short VALIDATION_FAILED error naming the formula and where it was going (a cell such as
   * "F1", or "source") when it cannot be written.
   */
  check(formula: string, where: FormulaTarget, hint: FormulaHint): void {
    this.checkAll([{ formula, ...where }], hint)
  }

  /**
   * Checks a batch before any of it is written: one error lists the first few refusals (each names its
   * cell) and says that nothing was written.
   */
  checkAll(batch: Iterable<FormulaTarget & { formula: string }>, hint: FormulaHint): void {
    const refusals: string[] = []
    let more = 0
    for (const item of batch) {
      const refusal = this.refusal(item.formula, item, hint)
      if (!refusal) continue
      if (refusals.length < MAX_LISTED) refusals.push(refusal)
      else more++
    }
    if (refusals.length === 0) return
    const others = more > 0 ? ` ${more} more formula(s) in this call cannot be written either.` : ''
    throw invalidInput(`${refusals.join(' ')}${others} Nothing was written.`)
  }
}
