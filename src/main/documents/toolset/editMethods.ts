import { z } from 'zod'
import { AppError } from '../../../shared/errors'
import { method, type ToolContext } from '../../tools'
import type { DocumentBrowser } from '../chromium/documentBrowser'
import { dirOf, renderDocx } from '../createDocuments'
import { type DocxEdit, editDocx } from '../edit/editDocx'

const MAX_DOCX_BYTES = 100 * 1024 * 1024

const EditReceipt = z.object({
  path: z.string(),
  bytes: z.number().int(),
  changed: z.string().describe('What was done, in one sentence.'),
  heading: z.string().optional(),
  removed_blocks: z.number().int(),
  added_blocks: z.number().int(),
  tables: z.number().int(),
  diagrams: z.number().int(),
  diagrams_failed: z.number().int(),
  images: z.number().int(),
  warnings: z.array(z.string()),
  backup: z.string().optional(),
  version: z.string().optional(),
})
type EditReceipt = z.infer<typeof EditReceipt>

const Occurrence = z
  .number()
  .int()
  .min(1)
  .optional()
  .describe('Which one when the same heading appears more than once (1 = first).')

async function readDocx(ctx: ToolContext, path: string): Promise<Uint8Array> {
  const lower = path.toLowerCase()
  if (!lower.endsWith('.docx') && !lower.endsWith('.doc'))
    throw new AppError('VALIDATION_FAILED', `${path} is not a Word document; the path must end in .docx.`)
  return new Uint8Array(await ctx.workspace.readFile(path, { maxBytes: MAX_DOCX_BYTES }))
}

function summarize(
  edit: DocxEdit,
  removed: number,
  added: number,
  heading?: string,
  before?: string,
): string {
  const where = heading
    ? edit.kind === 'replace'
      ? `under "${heading}"`
      : `at the end of the section "${heading}"`
    : 'at the end of the document'
  const next = before ? ` (before "${before}")` : ''
  return edit.kind === 'replace'
    ? `Replaced ${removed} block(s) ${where} with ${added} new block(s)${next}.`
    : `Added ${added} block(s) ${where}${next}.`
}

async function applyEdit(
  ctx: ToolContext,
  browser: DocumentBrowser,
  args: { path: string; markdown: string; edit: DocxEdit },
): Promise<EditReceipt> {
  const { path, markdown, edit } = args
  const original = await readDocx(ctx, path)
  const rendered = await renderDocx({ markdown, baseDir: dirOf(path) }, { browser, workspace: ctx.workspace })
  const result = editDocx(original, rendered.bytes, edit, path)
  const receipt = await ctx.workspace.writeFile(path, result.bytes, {
    overwrite: true,
    message: `${edit.kind === 'replace' ? 'replace section in' : 'append to'} ${path}`,
  })
  return {
    path: receipt.path,
    bytes: receipt.bytes,
    changed: summarize(edit, result.removedBlocks, result.addedBlocks, result.heading, result.before),
    ...(result.heading !== undefined ? { heading: result.heading } : {}),
    removed_blocks: result.removedBlocks,
    added_blocks: result.addedBlocks,
    tables: rendered.counts.tables,
    diagrams: rendered.counts.diagrams,
    diagrams_failed: rendered.counts.diagrams_failed,
    images: rendered.counts.images,
    warnings: [...rendered.warnings, ...result.warnings],
    ...(receipt.backup ? { backup: receipt.backup } : {}),
    ...(receipt.version ? { version: receipt.version } : {}),
  }
}

/** `append_docx` and `replace_section`: edits of an existing .docx that keep the rest of it as it was. */
export function editMethods(markdown: z.ZodString, browserOf: (ctx: ToolContext) => DocumentBrowser) {
  return {
    appendDocx: method({
      description:
        "Adds Markdown at the end of an existing .docx, or at the end of a heading's section; the rest of the file is kept as it was (a backup is taken).",
      input: z.object({
        path: z.string().min(1),
        markdown,
        heading: z
          .string()
          .optional()
          .describe("Add at the end of this heading's section instead of the end of the document."),
        occurrence: Occurrence,
      }),
      output: EditReceipt,
      examples: [
        { path: '/reports/minutes.docx', markdown: '## Actions\n\n- Send the budget', heading: 'Decisions' },
      ],
      risk: 'write',
      run: async ({ path, markdown, heading, occurrence }, ctx) =>
        applyEdit(ctx, browserOf(ctx), { path, markdown, edit: { kind: 'append', heading, occurrence } }),
    }),
    replaceSection: method({
      description:
        'Replaces the content under a heading of an existing .docx, up to the next heading of the same or a higher level; the heading itself stays.',
      input: z.object({
        path: z.string().min(1),
        heading: z.string().min(1),
        markdown,
        occurrence: Occurrence,
      }),
      output: EditReceipt,
      examples: [{ path: '/reports/q3.docx', heading: 'Budget', markdown: 'Approved at **120,000 EUR**.' }],
      risk: 'write',
      run: async ({ path, heading, markdown, occurrence }, ctx) =>
        applyEdit(ctx, browserOf(ctx), { path, markdown, edit: { kind: 'replace', heading, occurrence } }),
    }),
  }
}
