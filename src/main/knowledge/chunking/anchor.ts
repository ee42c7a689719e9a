import { z } from 'zod'

/** Where a passage sits in its document: heading path, PDF page, sheet and table rows, slide. */
export const Anchor = z.object({
  headings: z.array(z.string()),
  page: z.number().int().min(1).optional(),
  sheet: z.string().optional(),
  /** Data rows of the sheet's table, 1-based after the header row, e.g. `1-40`. */
  rows: z.string().optional(),
  slide: z.number().int().min(1).optional(),
})
export type Anchor = z.infer<typeof Anchor>

/** Ids some converters leave as headings (a GUID, a long hex key): they say nothing to a reader. */
const ID_HEADING =
  /^[{(]?[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}[)}]?$|^(?=.*\d)(?=.*[a-f])[0-9a-f]{16,}$/i

/** One line a person can read: `Page 3 › Results › Table 2`, `Sheet "Q1", rows 1-40`, `Slide 4: Plan`. */
export function anchorLabel(anchor: Anchor): string {
  const parts: string[] = []
  if (anchor.page !== undefined) parts.push(`Page ${anchor.page}`)
  if (anchor.sheet !== undefined)
    parts.push(`Sheet "${anchor.sheet}"${anchor.rows ? `, rows ${anchor.rows}` : ''}`)
  else if (anchor.rows !== undefined) parts.push(`Rows ${anchor.rows}`)
  const headings = (
    anchor.sheet !== undefined || anchor.slide !== undefined ? anchor.headings.slice(1) : anchor.headings
  ).filter((heading) => !ID_HEADING.test(heading.trim()))
  if (anchor.slide !== undefined) parts.push(anchor.headings[0] ?? `Slide ${anchor.slide}`)
  parts.push(...headings)
  return parts.join(' › ') || 'Start of the document'
}
