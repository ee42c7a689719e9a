import { z } from 'zod'
import { AppError } from '../../../shared/errors'
import { defineToolset, method, sessionState, type ToolContext } from '../../tools'
import {
  createDocumentBrowser,
  type DocumentBrowser,
  type DocumentBrowserOptions,
} from '../chromium/documentBrowser'
import { dirOf, type RenderedDocument, renderDocx, renderPdf } from '../createDocuments'
import { SUPPORTED_DIAGRAMS } from '../diagrams/supportedDiagrams'
import { editMethods } from './editMethods'
import { imageMethods } from './imageMethods'
import { pptxMethods } from './pptxMethods'
import { reviewMethods } from './reviewMethods'

export type DocumentsEnvironment = DocumentBrowserOptions

const Markdown = z
  .string()
  .min(1)
  .describe(
    'GFM Markdown; ```mermaid blocks are drawn, \\pagebreak starts a new page, ![alt](/img.png) embeds a workspace picture.',
  )
const Toc = z.boolean().default(false).describe('Start with a table of contents of headings 1-3.')
const Overwrite = z
  .boolean()
  .default(false)
  .describe('Replace an existing file (its old content is backed up).')

const Receipt = z.object({
  path: z.string(),
  bytes: z.number().int(),
  pages: z.number().int().optional(),
  headings: z.number().int(),
  tables: z.number().int(),
  diagrams: z.number().int(),
  diagrams_failed: z.number().int().describe('Diagrams kept as code because they did not parse.'),
  images: z.number().int(),
  warnings: z.array(z.string()),
  backup: z.string().optional(),
})

function requireExtension(path: string, extension: string): void {
  if (!path.toLowerCase().endsWith(extension))
    throw new AppError(
      'VALIDATION_FAILED',
      `The path must end in ${extension}, e.g. /reports/summary${extension}.`,
    )
}

async function save(
  ctx: ToolContext,
  path: string,
  rendered: RenderedDocument,
  overwrite: boolean,
): Promise<z.infer<typeof Receipt>> {
  const receipt = await ctx.workspace.writeFile(path, rendered.bytes, {
    overwrite,
    message: `create ${path}`,
  })
  return {
    path: receipt.path,
    bytes: receipt.bytes,
    ...(rendered.pages !== undefined ? { pages: rendered.pages } : {}),
    ...rendered.counts,
    warnings: rendered.warnings,
    ...(receipt.backup ? { backup: receipt.backup } : {}),
  }
}

async function refuseExisting(ctx: ToolContext, path: string, overwrite: boolean): Promise<void> {
  if (!overwrite && (await ctx.workspace.exists(path)))
    throw new AppError('CONFLICT', `${path} exists; pass overwrite: true to replace it (a backup is kept).`)
}

export function createDocumentsToolset(env: DocumentsEnvironment = {}) {
  const browsers = sessionState<DocumentBrowser>(
    'documents.browser',
    () => createDocumentBrowser(env),
    (browser) => browser.close(),
  )
  return defineToolset({
    name: 'documents',
    summary:
      'Writes Word (.docx), PowerPoint (.pptx), PDF and PNG/JPEG pictures from Markdown (or HTML), with Mermaid diagrams drawn; pictures to PDF; reviews Word files (tracked changes, comments, find/replace, templates).',
    methods: {
      createDocx: method({
        description:
          'Writes an editable Word document from Markdown and returns a receipt (headings, tables, diagrams, warnings). ' +
          'A diagram that does not parse is kept as code and named in warnings.',
        input: z.object({
          path: z.string().min(1),
          markdown: Markdown,
          title: z.string().max(300).optional(),
          template: z.string().optional().describe('A .docx or .dotx in the workspace whose styles to use.'),
          toc: Toc,
          overwrite: Overwrite,
        }),
        output: Receipt,
        examples: [
          {
            path: '/reports/minutes.docx',
            markdown: '# Minutes\n\n- Budget approved\n- Next meeting: May 3',
            title: 'Board minutes',
          },
        ],
        risk: 'write',
        run: async ({ path, markdown, title, template, toc, overwrite }, ctx) => {
          requireExtension(path, '.docx')
          await refuseExisting(ctx, path, overwrite)
          const rendered = await renderDocx(
            { markdown, title, toc, template, baseDir: dirOf(path) },
            { browser: browsers.get(ctx), workspace: ctx.workspace },
          )
          return save(ctx, path, rendered, overwrite)
        },
      }),
      createPdf: method({
        description:
          'Prints Markdown to a PDF (diagrams as vector graphics, page numbers in the footer) and returns a receipt with the page count.',
        input: z.object({
          path: z.string().min(1),
          markdown: Markdown,
          title: z.string().max(300).optional(),
          page_size: z.enum(['A4', 'A3', 'A5', 'Letter', 'Legal']).default('A4'),
          margins: z
            .string()
            .regex(
              /^\d+(\.\d+)?(mm|cm|in|pt)( \d+(\.\d+)?(mm|cm|in|pt)){0,3}$/,
              'CSS lengths such as "2cm" or "2cm 1.5cm"',
            )
            .default('2cm')
            .describe('CSS margins: "2cm", or top/right/bottom/left like "2cm 1.5cm".'),
          toc: Toc,
          overwrite: Overwrite,
        }),
        output: Receipt,
        examples: [
          {
            path: '/reports/summary.pdf',
            markdown: '# Q3 summary\n\n| Region | Sales |\n|---|---:|\n| North | 120 |',
            page_size: 'A4',
          },
        ],
        risk: 'write',
        run: async ({ path, markdown, title, page_size, margins, toc, overwrite }, ctx) => {
          requireExtension(path, '.pdf')
          await refuseExisting(ctx, path, overwrite)
          const rendered = await renderPdf(
            { markdown, title, toc, baseDir: dirOf(path) },
            { browser: browsers.get(ctx), workspace: ctx.workspace },
            { pageSize: page_size, margins },
          )
          return save(ctx, path, rendered, overwrite)
        },
      }),
      supportedDiagrams: method({
        description:
          'Lists the Mermaid diagram types that are drawn in documents, each with what it is for and an example.',
        input: z.object({}),
        output: z.object({
          diagrams: z.array(z.object({ type: z.string(), use: z.string(), example: z.string() })),
        }),
        examples: [{}],
        risk: 'read',
        run: async () => ({ diagrams: SUPPORTED_DIAGRAMS.map((d) => ({ ...d })) }),
      }),
      ...editMethods(Markdown, (ctx) => browsers.get(ctx)),
      ...imageMethods((ctx) => browsers.get(ctx)),
      ...reviewMethods(),
      ...pptxMethods((ctx) => browsers.get(ctx)),
    },
  })
}
