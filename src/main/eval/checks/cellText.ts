import type ExcelJS from 'exceljs'
import type { Scalar } from './checkSchema'

export interface CellInfo {
  value: Scalar
  formula?: string
}

/** A cell as a plain value (a formula's cached result) plus its formula text. */
export function cellInfo(cell: ExcelJS.Cell): CellInfo {
  const v = cell.value as unknown
  if (v === null || v === undefined) return { value: null }
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return { value: v }
  if (v instanceof Date) return { value: v.toISOString().slice(0, 10) }
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>
    if ('formula' in o || 'sharedFormula' in o) {
      const formula = cell.formula ?? String(o.formula ?? '')
      const result = o.result as unknown
      const value =
        typeof result === 'object' && result !== null
          ? String((result as { error?: string }).error ?? '')
          : ((result ?? null) as Scalar)
      return { value, formula }
    }
    if ('richText' in o && Array.isArray(o.richText))
      return { value: (o.richText as { text: string }[]).map((r) => r.text).join('') }
    if ('text' in o) return { value: String(o.text) }
    if ('error' in o) return { value: String(o.error) }
  }
  return { value: String(v) }
}

export function sameValue(actual: Scalar, expected: Scalar, tolerance: number): boolean {
  if (expected === null) return actual === null || actual === ''
  if (typeof expected === 'number')
    return typeof actual === 'number' && Math.abs(actual - expected) <= tolerance
  if (typeof expected === 'string') return typeof actual === 'string' && norm(actual) === norm(expected)
  return actual === expected
}

export function norm(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase()
}

export function show(value: Scalar): string {
  return value === null ? 'empty' : JSON.stringify(value)
}
