import { z } from 'zod'
import { route } from '../defineContract'
import { Binary } from './chat'
import { AgentPathInput } from './workspace'

/**
 * Which stored version of a file: `current` (the file now), `h:<id>` (a history version) or `b:<n>`
 * (a numbered backup beside the file).
 */
export const PreviewVersion = z
  .string()
  .regex(/^(current|h:[0-9a-f]{4,64}|b:\d{1,6})$/, 'not a version: current, h:<id> or b:<number>')
  .default('current')

const Target = z.object({ path: AgentPathInput, version: PreviewVersion })

/** A resolved cell style; cells point at one by index so a page of rows stays small. */
export const CellStyle = z.object({
  bold: z.boolean().optional(),
  italic: z.boolean().optional(),
  underline: z.boolean().optional(),
  /** `#rrggbb` */
  color: z.string().optional(),
  fill: z.string().optional(),
  align: z.enum(['left', 'center', 'right', 'justify']).optional(),
  /** Border styles per side (`thin`, `medium`, `thick`, `double`, `dashed`, …). */
  borders: z
    .object({
      top: z.string().optional(),
      right: z.string().optional(),
      bottom: z.string().optional(),
      left: z.string().optional(),
    })
    .optional(),
  wrap: z.boolean().optional(),
})
export type CellStyle = z.infer<typeof CellStyle>

/** A chart as stored in the workbook: its kind and the values cached in its XML (no formula is evaluated). */
export const PreviewChart = z.object({
  type: z.enum(['bar', 'column', 'line', 'area', 'pie', 'doughnut', 'scatter']),
  /** Bars stacked (or stacked to 100 %) rather than side by side. */
  grouping: z.enum(['clustered', 'stacked', 'percentStacked', 'standard']).optional(),
  /** Category labels (x values of a scatter chart as text). */
  categories: z.array(z.string()),
  series: z.array(
    z.object({
      name: z.string(),
      /** One value per category; null where the cache has none. */
      values: z.array(z.number().nullable()),
      /** Numeric x values of a scatter series. */
      x: z.array(z.number().nullable()).optional(),
      /** `#rrggbb` when the chart sets the series colour. */
      color: z.string().optional(),
    }),
  ),
  xTitle: z.string().optional(),
  yTitle: z.string().optional(),
})
export type PreviewChart = z.infer<typeof PreviewChart>

export const SheetPlaceholder = z.object({
  kind: z.enum(['chart', 'pivot', 'image']),
  title: z.string(),
  /** The cell the object is anchored at, e.g. `E2`. */
  anchor: z.string(),
  /** The cell its lower right corner is anchored at, when stored. */
  to: z.string().optional(),
  /** A chart's kind and cached values, to draw it; absent for a chart kind the preview does not draw. */
  chart: PreviewChart.optional(),
})
export type SheetPlaceholder = z.infer<typeof SheetPlaceholder>

export const SheetInfo = z.object({
  name: z.string(),
  /** Last used row and column (1-based; 0 for an empty sheet). */
  rows: z.number().int().nonnegative(),
  columns: z.number().int().nonnegative(),
  frozen: z.object({ rows: z.number().int().nonnegative(), columns: z.number().int().nonnegative() }),
  /** Width in characters of columns 1..n (missing entries use `defaultWidth`). */
  widths: z.array(z.number().nonnegative()),
  defaultWidth: z.number().positive(),
  merges: z.array(z.string()),
  placeholders: z.array(SheetPlaceholder),
  hidden: z.boolean(),
  /** False while `rows` is an estimate (a large sheet not yet read to its end); `preview.sheetRows` says more. */
  rowsExact: z.boolean().optional(),
  /** Height in points of rows that set none, when the sheet sets a default. */
  defaultHeight: z.number().positive().optional(),
})
export type SheetInfo = z.infer<typeof SheetInfo>

export const PreviewCell = z.object({
  /** 1-based column. */
  c: z.number().int().positive(),
  /** The value as the sheet shows it (number format applied). */
  t: z.string(),
  f: z.string().optional(),
  /** Index into the description's `styles`. */
  s: z.number().int().nonnegative().optional(),
  /** The raw value's kind, for alignment: n number, s text, b boolean, e error, d date. */
  k: z.enum(['n', 's', 'b', 'e', 'd']).optional(),
})
export type PreviewCell = z.infer<typeof PreviewCell>

export const PreviewRow = z.object({
  r: z.number().int().positive(),
  /** Height in points, when the sheet sets one. */
  h: z.number().positive().optional(),
  cells: z.array(PreviewCell),
})
export type PreviewRow = z.infer<typeof PreviewRow>

/** Rows a workbook's description brings of its first visible sheet: the grid's first page, not asked again. */
export const PREVIEW_FIRST_ROWS = 200

const Common = {
  path: z.string(),
  name: z.string(),
  size: z.number().int().nonnegative(),
  version: z.string(),
}

export const PreviewDescription = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('sheet'),
    ...Common,
    sheets: z.array(SheetInfo),
    styles: z.array(CellStyle),
    /** Rows 1 to `PREVIEW_FIRST_ROWS` of the first visible sheet (those that hold cells), as `preview.sheetRows` gives them. */
    firstRows: z.object({ sheet: z.string(), rows: z.array(PreviewRow) }).optional(),
  }),
  z.object({ kind: z.literal('pdf'), ...Common, pages: z.number().int().positive() }),
  z.object({ kind: z.literal('image'), ...Common, mimeType: z.string() }),
  z.object({
    kind: z.literal('text'),
    ...Common,
    /** A highlight.js language name, `markdown` for Markdown (drawn, not highlighted). */
    language: z.string(),
    text: z.string(),
    truncated: z.boolean(),
  }),
  z.object({
    kind: z.literal('html'),
    ...Common,
    /** The document as HTML, not yet sanitised: the renderer sanitises and frames it. */
    html: z.string(),
    warnings: z.array(z.string()),
  }),
  z.object({
    kind: z.literal('email'),
    ...Common,
    headers: z.array(z.object({ label: z.string(), value: z.string() })),
    text: z.string(),
    html: z.string().optional(),
    attachments: z.array(z.object({ name: z.string(), size: z.number().int(), mimeType: z.string() })),
  }),
  z.object({
    kind: z.literal('calendar'),
    ...Common,
    events: z.array(
      z.object({
        summary: z.string(),
        start: z.string(),
        end: z.string().optional(),
        allDay: z.boolean(),
        location: z.string().optional(),
        description: z.string().optional(),
      }),
    ),
  }),
  z.object({ kind: z.literal('unsupported'), ...Common, reason: z.string() }),
])
export type PreviewDescription = z.infer<typeof PreviewDescription>

export const PreviewVersionEntry = z.object({
  version: z.string(),
  source: z.enum(['current', 'history', 'backup']),
  label: z.string(),
  date: z.string(),
})
export type PreviewVersionEntry = z.infer<typeof PreviewVersionEntry>

/** Rows one `preview.sheetRows` call returns at most. */
export const MAX_PREVIEW_ROWS = 1000

export const previewRoutes = {
  'preview.describe': route({
    summary:
      'What the preview pane shows of a workspace file (or a stored version of it): sheets and styles, page count, text, sanitisable HTML, a mail or events.',
    input: Target,
    output: PreviewDescription,
  }),
  'preview.sheetRows': route({
    summary: 'A window of rows of one sheet of a workbook, formatted as the sheet shows them.',
    input: Target.extend({
      sheet: z.string().min(1).max(200),
      from: z.number().int().positive(),
      count: z.number().int().positive().max(MAX_PREVIEW_ROWS),
    }),
    output: z.object({
      rows: z.array(PreviewRow),
      /** The row count now known (exact once `complete`) and, once the sheet is read to its end, its merges. */
      sheet: z.object({
        rows: z.number().int().nonnegative(),
        complete: z.boolean(),
        merges: z.array(z.string()).optional(),
      }),
    }),
  }),
  'preview.pdfPage': route({
    summary: 'One PDF page drawn by PDFium in the main process, as a JPEG picture.',
    input: Target.extend({
      page: z.number().int().positive(),
      /** Pixels wanted across the page. */
      width: z.number().int().min(100).max(3000).default(900),
    }),
    output: z.object({
      page: z.number().int(),
      width: z.number().int(),
      height: z.number().int(),
      bytes: Binary,
    }),
  }),
  'preview.bytes': route({
    summary: 'The bytes of an image file (or a stored version of it) for the pane to draw.',
    input: Target,
    output: z.object({ mimeType: z.string(), bytes: Binary }),
  }),
  'preview.versions': route({
    summary: 'Stored versions of a file, newest first: the file now, its history and its numbered backups.',
    input: z.object({ path: AgentPathInput }),
    output: z.object({ versions: z.array(PreviewVersionEntry) }),
  }),
  'preview.compare': route({
    summary: 'The cells that differ between two versions of a workbook (value or formula), per sheet.',
    input: z.object({ path: AgentPathInput, version: PreviewVersion, against: PreviewVersion }),
    output: z.object({
      sheets: z.array(z.object({ sheet: z.string(), cells: z.array(z.string()) })),
      /** More cells differ than are listed. */
      truncated: z.boolean(),
    }),
  }),
  'preview.restore': route({
    summary:
      'Restores a history version (through the history toolset) or a numbered backup (through the files toolset) of a file; the current content is kept as a backup and in the history.',
    input: z.object({ path: AgentPathInput, version: z.string().regex(/^(h:[0-9a-f]{4,64}|b:\d{1,6})$/) }),
    output: z.object({ path: z.string(), restoredFrom: z.string(), bytes: z.number().int().nonnegative() }),
  }),
}
