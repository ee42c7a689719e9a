/** The spreadsheet toolset's area receipt, as far as the UI needs it. */
export interface AreaReceipt {
  sheet: string
  range: string
  values: unknown[][]
  formulas?: Record<string, string>
  types?: Record<string, string>
}

export interface SettingsReceipt {
  sheet: string
  range: string
  applied: string[]
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null

export function isAreaReceipt(value: unknown): value is AreaReceipt {
  return (
    isRecord(value) &&
    typeof value.sheet === 'string' &&
    typeof value.range === 'string' &&
    Array.isArray(value.values) &&
    value.values.every(Array.isArray)
  )
}

export function isSettingsReceipt(value: unknown): value is SettingsReceipt {
  return (
    isRecord(value) &&
    typeof value.sheet === 'string' &&
    typeof value.range === 'string' &&
    Array.isArray(value.applied)
  )
}

/** 0 -> "A", 25 -> "Z", 26 -> "AA". */
export function columnName(index: number): string {
  let name = ''
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name
  return name
}

/** "AA10" -> { column: 26, row: 10 }; absolute markers ($) are ignored. */
export function parseCell(ref: string): { column: number; row: number } | undefined {
  const match = /^\$?([A-Za-z]{1,3})\$?(\d+)$/.exec(ref.trim())
  if (!match?.[1] || !match[2]) return undefined
  let column = 0
  for (const letter of match[1].toUpperCase()) column = column * 26 + (letter.charCodeAt(0) - 64)
  return { column: column - 1, row: Number(match[2]) }
}

/** The top-left cell of an A1 range ("Sheet1!B2:D4" or "B2"). */
export function rangeStart(range: string): { column: number; row: number } {
  const local = range.includes('!') ? range.slice(range.lastIndexOf('!') + 1) : range
  return parseCell(local.split(':')[0] ?? '') ?? { column: 0, row: 1 }
}

export function displayValue(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}
