import { z } from 'zod'

const Scalar = z.union([z.string(), z.number(), z.boolean(), z.null()])
export type Scalar = z.infer<typeof Scalar>
const Workbook = z.string().regex(/^\/.+\.xlsx$/i, 'an .xlsx agent path')
const Range = z.string().regex(/^[A-Z]{1,3}\d+(:[A-Z]{1,3}\d+)?$/, 'a range like B2:D7')
/** Text that must appear; an array lists accepted alternatives (e.g. "12,480" or "12480"). */
export const Fact = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)])
export type Fact = z.infer<typeof Fact>

/** Cells of a range, row by row: values (numbers within tolerance), formula pattern, number format, bold. */
const CellsCheck = z.strictObject({
  type: z.literal('cells'),
  path: Workbook,
  sheet: z.string().min(1),
  range: Range,
  values: z.array(z.array(Scalar)).optional(),
  /** Regular expression (case-insensitive) every cell's formula must match; `{row}` is the cell's row. */
  formula: z.string().optional(),
  /** Regular expression the number format must match. */
  numFmt: z.string().optional(),
  bold: z.boolean().optional(),
  tolerance: z.number().nonnegative().default(0.005),
})

/** A table found by its header row anywhere on the sheet; the rows below it up to the first empty row. */
const TableCheck = z.strictObject({
  type: z.literal('table'),
  path: Workbook,
  sheet: z.string().min(1),
  header: z.array(z.string().min(1)).min(1),
  rows: z.array(z.array(Scalar)).min(1),
  /** `any`: the same rows in any order; `exact`: in this order. */
  order: z.enum(['any', 'exact']).default('any'),
})

/** A chart in the workbook whose series read these ranges (e.g. "Monthly!B2:B7"). */
const ChartCheck = z.strictObject({
  type: z.literal('chart'),
  path: Workbook,
  /** DrawingML plot elements accepted, e.g. ["barChart"]. */
  plots: z.array(z.string().regex(/^[a-z]+Chart$/i)).min(1),
  values: z.array(z.string().min(1)).min(1),
  categories: z.string().min(1).optional(),
})

const SheetsCheck = z.strictObject({
  type: z.literal('sheets'),
  path: Workbook,
  include: z.array(z.string()).default([]),
  exclude: z.array(z.string()).default([]),
})

const FilesCheck = z.strictObject({
  type: z.literal('files'),
  exist: z.array(z.string().startsWith('/')).default([]),
  absent: z.array(z.string().startsWith('/')).default([]),
})

const FileTextCheck = z.strictObject({
  type: z.literal('fileText'),
  path: z.string().startsWith('/'),
  equals: z.string().optional(),
  includes: z.array(Fact).default([]),
})

/** The final answer (the `done` message or the direct reply) names these figures and facts. */
const AnswerCheck = z.strictObject({
  type: z.literal('answer'),
  numbers: z.array(z.number()).default([]),
  includes: z.array(Fact).default([]),
  excludes: z.array(z.string().min(1)).default([]),
})

const Heading = z.strictObject({ level: z.number().int().min(1).max(6), text: z.string().min(1) })

/** A Markdown file with these headings in this order (levels checked) and facts under each heading. */
const MarkdownCheck = z.strictObject({
  type: z.literal('markdown'),
  path: z.string().regex(/^\/.+\.md$/i),
  headings: z.array(Heading).min(1),
  facts: z.record(z.string(), z.array(Fact)).default({}),
})

/** A table of a document: a header row (cells in order) with these rows under it (in any order). */
const DocumentTable = z.strictObject({
  header: z.array(z.string().min(1)).min(1),
  rows: z.array(z.array(Scalar)).default([]),
})

/**
 * A Word or PDF file, read back with Bureau's converter: really of its extension's format, with these
 * headings in order, facts under a heading or anywhere, and tables.
 */
const DocumentCheck = z.strictObject({
  type: z.literal('document'),
  path: z.string().regex(/^\/.+\.(docx|pdf)$/i, 'a .docx or .pdf agent path'),
  headings: z.array(Heading).default([]),
  facts: z.record(z.string(), z.array(Fact)).default({}),
  includes: z.array(Fact).default([]),
  tables: z.array(DocumentTable).default([]),
})

/** A form submitted to the local test site (last submission to path); fields compared case-insensitively. */
const SubmissionCheck = z.strictObject({
  type: z.literal('submission'),
  path: z.string().startsWith('/'),
  fields: z.record(z.string(), z.string()),
})

/**
 * A message in a folder of the task's mailbox (read from the maildir with mailparser, not over IMAP):
 * addressed to these recipients, with this subject, answering the message `inReplyTo` (its Message-ID,
 * in In-Reply-To and References), with these facts in its text. Passes when one message has them all.
 */
const MailCheck = z.strictObject({
  type: z.literal('mail'),
  folder: z.string().min(1).default('Drafts'),
  to: z.array(z.string().min(3)).default([]),
  subject: Fact.optional(),
  inReplyTo: z
    .string()
    .regex(/^<[^<>\s]+>$/, 'a Message-ID like <id@host>')
    .optional(),
  includes: z.array(Fact).default([]),
})

/**
 * What the task's MCP servers did with their non-read-only tools (their journal): `count` calls of `tool`
 * whose arguments have these values; `only`: no other such call was made.
 */
const McpCallCheck = z.strictObject({
  type: z.literal('mcpCall'),
  tool: z.string().min(1),
  args: z.record(z.string(), Scalar).default({}),
  count: z.number().int().min(0).default(1),
  only: z.boolean().default(true),
})

/**
 * Keywords in a file or in a person's mail, with OfficeBench's containment rule (`evaluate_contain`): the
 * text lower-cased; from the first keyword that is a number on, commas are dropped from the text; every
 * keyword a substring. `absent` is OfficeBench's "not contain": the negation of that whole check, so a
 * missing file passes it. Text: xlsx as the active sheet's cell dump, docx as its body paragraphs, pdf as
 * its text, txt/ics as they are; mail as every message of the person's folder (From, To, Subject, text).
 */
const KeywordsCheck = z.strictObject({
  type: z.literal('keywords'),
  source: z.discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('file'),
      path: z.string().startsWith('/'),
      format: z.enum(['xlsx', 'docx', 'pdf', 'text']),
    }),
    z.strictObject({
      kind: z.literal('mail'),
      person: z.string().min(1),
      /** The task's own user: their INBOX and Sent folder; anyone else: the folder named after them. */
      own: z.boolean(),
    }),
  ]),
  keywords: z.array(z.string()).min(1),
  absent: z.boolean().default(false),
})

/**
 * Cells of the active sheet against its text dump `(row, col): value` (OfficeBench's
 * `evaluate_excel_cell_value`: a substring of the dump; `oneOf`: the cell's first word is one of these).
 */
const SheetTextCheck = z.strictObject({
  type: z.literal('sheetText'),
  path: Workbook,
  matches: z
    .array(
      z.strictObject({
        row: z.string().regex(/^\d+$/),
        col: z.string().regex(/^\d+$/),
        value: z.string().optional(),
        oneOf: z.array(z.string()).optional(),
      }),
    )
    .min(1),
})

/** The active sheet equal cell by cell (values and formulas) to a reference workbook on disk. */
const SameSheetCheck = z.strictObject({
  type: z.literal('sameSheet'),
  path: Workbook,
  /** The reference workbook (a file on disk, e.g. in a third-party suite's folder). */
  expected: z.string().min(1),
})

/**
 * The active sheet changed from a start workbook on disk, and the changed lines of the two text dumps
 * (a unified diff without context) contain every keyword, case-sensitively.
 */
const SheetDiffCheck = z.strictObject({
  type: z.literal('sheetDiff'),
  path: Workbook,
  start: z.string().min(1),
  keywords: z.array(z.string().min(1)).min(1),
})

/** No two events of an .ics calendar overlap (sorted by start, each ends by the next one's start). */
const NoOverlapCheck = z.strictObject({
  type: z.literal('noOverlap'),
  path: z.string().regex(/^\/.+\.ics$/i, 'an .ics agent path'),
})

/** The file really is of this format (its signature), so a text file named .jpg is not an image. */
const FileSignatureCheck = z.strictObject({
  type: z.literal('fileSignature'),
  path: z.string().startsWith('/'),
  format: z.enum(['jpeg', 'png', 'gif', 'pdf', 'docx', 'xlsx', 'ics']),
})

export const Check = z.discriminatedUnion('type', [
  CellsCheck,
  TableCheck,
  ChartCheck,
  SheetsCheck,
  FilesCheck,
  FileTextCheck,
  AnswerCheck,
  MarkdownCheck,
  DocumentCheck,
  SubmissionCheck,
  MailCheck,
  McpCallCheck,
  KeywordsCheck,
  SheetTextCheck,
  SameSheetCheck,
  SheetDiffCheck,
  NoOverlapCheck,
  FileSignatureCheck,
])
export type Check = z.infer<typeof Check>
export type CheckOf<T extends Check['type']> = Extract<Check, { type: T }>
