import * as formulajs from '@formulajs/formulajs'
import FormulaParser, { type FunctionParam } from 'fast-formula-parser'
import { withPreChecks } from './formulaLimits'

type FormulaFunction = (...params: FunctionParam[]) => unknown

interface ParserInternals {
  functions: Record<string, FormulaFunction>
  funsNeedContext: string[]
  funsNeedContextAndNoDataRetrieve: string[]
  funsPreserveRef: string[]
}

function toFormulaResult(value: unknown): unknown {
  if (value instanceof Error)
    return new FormulaParser.FormulaError(value.message.startsWith('#') ? value.message : '#VALUE!')
  return value
}

/** formulajs keeps dotted names nested (`STDEV.S` is `STDEV.S` on the STDEV function). */
function formulajsFunction(name: string): ((...args: unknown[]) => unknown) | undefined {
  let at: unknown = formulajs
  for (const part of name.split('.')) {
    if ((typeof at !== 'object' && typeof at !== 'function') || at === null) return undefined
    at = (at as Record<string, unknown>)[part]
  }
  return typeof at === 'function' ? (at as (...args: unknown[]) => unknown) : undefined
}

function adapt(fn: (...args: unknown[]) => unknown): FormulaFunction {
  return (...params) => toFormulaResult(fn(...params.map((p) => (p.omitted ? undefined : p.value))))
}

let cached: Record<string, FormulaFunction> | undefined

/**
 * Functions handed to fast-formula-parser: formulajs fills the ones it lacks (COUNTA, ...) and the
 * ones it only declares (its SUMIFS, TEXTJOIN, MAXIFS... return nothing), tried after its own.
 * Functions that can build a huge result from small arguments (REPT, SUBSTITUTE, ...) check them first.
 */
export function extraFunctions(): Record<string, FormulaFunction> {
  if (cached) return cached
  const parser = new FormulaParser() as unknown as ParserInternals
  const special = new Set([
    ...parser.funsNeedContext,
    ...parser.funsNeedContextAndNoDataRetrieve,
    ...parser.funsPreserveRef,
  ])
  const extra: Record<string, FormulaFunction> = {}
  const names = new Set([
    ...Object.keys(parser.functions),
    ...Object.keys(formulajs).filter((n) => /^[A-Z][A-Z0-9.]*$/.test(n)),
  ])
  for (const name of names) {
    if (special.has(name)) continue
    const fallback = formulajsFunction(name)
    if (!fallback) continue
    const own = parser.functions[name]
    const adapted = adapt(fallback)
    extra[name] = own
      ? (...params) => {
          const result = own(...params)
          return result === undefined ? adapted(...params) : result
        }
      : adapted
  }
  // fast-formula-parser's INDEX returns a cell reference without the sheet of the range it indexed.
  const ownIndex = parser.functions.INDEX as unknown as (...args: unknown[]) => unknown
  extra.INDEX = ((context: unknown, range: { ref?: { sheet?: string } } | undefined, ...rest: unknown[]) => {
    const result = ownIndex(context, range, ...rest) as { ref?: { sheet?: string } } | undefined
    const sheet = range?.ref?.sheet
    if (sheet && result && typeof result === 'object' && result.ref && !result.ref.sheet)
      result.ref.sheet = sheet
    return result
  }) as unknown as FormulaFunction
  // fast-formula-parser's LEN stringifies an empty cell as an object.
  extra.LEN = (p) => (p.value === undefined || p.value === null ? 0 : String(p.value).length)
  cached = withPreChecks(extra, parser.functions)
  return cached
}
