import { type Area, areaName, columnLetters } from '../cells/address'

/** Columns one get_range call returns at most. */
export const PAGE_COLUMNS = 100
/** Cells one page holds at most: wide reads get fewer rows per page. */
export const PAGE_CELLS = 50_000

export interface RangePlan {
  /** The area this page shows. */
  page: Area
  /** Rows of the (possibly narrowed) area, over all pages. */
  totalRows: number
  nextPage?: number
  /** The columns this call left out, to read next. */
  nextRange?: string
  /** What was left out and how to ask for it. */
  truncated?: string
}

function columnSpan(left: number, right: number): string {
  return `${columnLetters(left)}:${columnLetters(right)}`
}

/**
 * Plans one page of a read: a wide area first loses the empty columns past the last used one, then is
 * cut to PAGE_COLUMNS columns (nextRange names the rest); rows per page shrink so a page stays under
 * PAGE_CELLS cells. Areas of at most PAGE_COLUMNS columns read exactly as asked.
 */
export function planRangePage(area: Area, usedRight: number, page: number, pageRows: number): RangePlan {
  const notes: string[] = []
  let right = area.right
  if (right - area.left + 1 > PAGE_COLUMNS && right > usedRight) {
    right = Math.max(area.left, usedRight)
    if (right < area.right)
      notes.push(
        `columns ${columnSpan(right + 1, area.right)} are past the last used column (${columnLetters(usedRight)}) and empty, so they were left out`,
      )
  }
  let nextRange: string | undefined
  const width = right - area.left + 1
  if (width > PAGE_COLUMNS) {
    const shown = area.left + PAGE_COLUMNS - 1
    nextRange = areaName({ top: area.top, left: shown + 1, bottom: area.bottom, right })
    notes.push(
      `only ${PAGE_COLUMNS} of ${width} columns (${columnSpan(area.left, shown)}) are returned per call; read range ${nextRange} for the rest`,
    )
    right = shown
  }
  const columns = right - area.left + 1
  const rowsPerPage = Math.max(1, Math.min(pageRows, Math.floor(PAGE_CELLS / columns)))
  const totalRows = area.bottom - area.top + 1
  const top = area.top + (page - 1) * rowsPerPage
  const bottom = Math.min(area.bottom, top + rowsPerPage - 1)
  const more = bottom < area.bottom
  if (rowsPerPage < pageRows && totalRows > rowsPerPage)
    notes.push(
      `pages hold ${rowsPerPage} rows at this width (at most ${PAGE_CELLS.toLocaleString('en-US')} cells)${more ? `; pass page ${page + 1} for the next rows` : ''}`,
    )
  const plan: RangePlan = { page: { top, left: area.left, bottom, right }, totalRows }
  if (more && top <= area.bottom) plan.nextPage = page + 1
  if (nextRange) plan.nextRange = nextRange
  if (notes.length > 0) {
    const text = notes.join('; ')
    plan.truncated = `${text.charAt(0).toUpperCase()}${text.slice(1)}.`
  }
  return plan
}
