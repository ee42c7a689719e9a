export interface MergedRange {
  top: number
  left: number
  bottom: number
  right: number
}

export interface ShapedTable {
  /** Lines above the table (titles, notes) that are not part of the grid. */
  preamble: string[]
  header: string[] | undefined
  rows: string[][]
}

const numberLike = /^[-+]?[$€£¥]?\s?\d[\d,.\s]*%?$|^[-+]?\d+(\.\d+)?(e[-+]?\d+)?$/i
const dateLike = /^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}( \d{1,2}:\d{2}(:\d{2})?)?$/

function isFilled(cell: string | undefined): boolean {
  return cell !== undefined && cell.trim() !== ''
}

function isValueLike(cell: string): boolean {
  const text = cell.trim()
  return numberLike.test(text) || dateLike.test(text)
}

/** Copies a merged cell's value into every cell it covers, except ranges spanning the whole width (titles). */
export function applyMerges(grid: string[][], merges: MergedRange[], width: number): void {
  for (const merge of merges) {
    const value = grid[merge.top]?.[merge.left] ?? ''
    if (!value || (merge.left === 0 && merge.right >= width - 1 && merge.top === merge.bottom)) continue
    for (let r = merge.top; r <= merge.bottom; r++) {
      const row = grid[r]
      if (!row) continue
      for (let c = merge.left; c <= merge.right; c++) if (!isFilled(row[c])) row[c] = value
    }
  }
}

/** Drops rows and columns with no content at all. */
export function pruneGrid(grid: string[][]): string[][] {
  const rows = grid
    .map((row) => row.map((cell) => (cell ?? '').trim()))
    .filter((row) => row.some((cell) => cell !== ''))
  const width = Math.max(0, ...rows.map((row) => row.length))
  const keep = Array.from({ length: width }, (_, c) => rows.some((row) => isFilled(row[c])))
  return rows.map((row) => Array.from({ length: width }, (_, c) => row[c] ?? '').filter((_, c) => keep[c]))
}

function looksLikeHeader(row: string[], width: number, next: string[] | undefined): boolean {
  const filled = row.filter(isFilled)
  if (filled.length < Math.min(2, width) || filled.length < width * 0.5) return false
  if (filled.some(isValueLike)) return false
  if (new Set(filled.map((cell) => cell.toLowerCase())).size !== filled.length) return false
  if (!next) return true
  // A header is usually followed by rows with values, or at least by rows that differ from it.
  return next.some((cell) => isFilled(cell) && isValueLike(cell)) || filled.every((cell) => cell.length <= 60)
}

export function columnName(index: number): string {
  let name = ''
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name
  return name
}

/**
 * Finds the header among the first rows instead of assuming row 1: leading one-cell rows become a
 * preamble, the first row of distinct labels becomes the header.
 */
export function shapeTable(grid: string[][]): ShapedTable {
  const rows = pruneGrid(grid)
  const width = Math.max(0, ...rows.map((row) => row.length))
  const preamble: string[] = []
  let start = 0
  while (
    start < rows.length - 1 &&
    width > 1 &&
    (rows[start]?.filter(isFilled).length ?? 0) === 1 &&
    start < 5
  ) {
    preamble.push(rows[start]?.find(isFilled) ?? '')
    start++
  }
  const first = rows[start]
  if (first && looksLikeHeader(first, width, rows[start + 1])) {
    return { preamble, header: first, rows: rows.slice(start + 1) }
  }
  return { preamble, header: undefined, rows: rows.slice(start) }
}
