import * as formulajs from '@formulajs/formulajs'
import FormulaParser, { type FunctionParam } from 'fast-formula-parser'

type FormulaFunction = (...params: FunctionParam[]) => unknown

/** Functions fast-formula-parser implements itself; formulajs fills the rest (SUMIFS, COUNTA, TEXTJOIN, ...). */
function builtinNames(): Set<string> {
  const names = new Set<string>()
  const probe = new FormulaParser() as unknown as { functions?: Record<string, unknown> }
  for (const name of Object.keys(probe.functions ?? {})) names.add(name)
  return names
}

function toFormulaResult(value: unknown): unknown {
  if (value instanceof Error)
    return new FormulaParser.FormulaError(value.message.startsWith('#') ? value.message : '#VALUE!')
  if (value instanceof Date) return value
  return value
}

function adapt(fn: (...args: unknown[]) => unknown): FormulaFunction {
  return (...params) => toFormulaResult(fn(...params.map((p) => (p.omitted ? undefined : p.value))))
}

let cached: Record<string, FormulaFunction> | undefined

/** The extra functions handed to fast-formula-parser. */
export function extraFunctions(): Record<string, FormulaFunction> {
  if (cached) return cached
  const builtin = builtinNames()
  const extra: Record<string, FormulaFunction> = {}
  for (const [name, fn] of Object.entries(formulajs)) {
    if (typeof fn !== 'function' || builtin.has(name) || !/^[A-Z][A-Z0-9.]*$/.test(name)) continue
    extra[name] = adapt(fn as (...args: unknown[]) => unknown)
  }
  // fast-formula-parser's LEN stringifies an empty cell as an object.
  extra.LEN = (p) => (p.value === undefined || p.value === null ? 0 : String(p.value).length)
  cached = extra
  return extra
}
