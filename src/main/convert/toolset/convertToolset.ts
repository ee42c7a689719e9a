import { z } from 'zod'
import { AppError } from '../../../shared/errors'
import { defineToolset, method, sessionState } from '../../tools'
import type { Converter } from '../createConverter'
import { createConverter } from '../createConverter'
import { displayName } from '../errors'
import { defaultLimits } from '../limits'
import { ConvertFormat } from '../types'
import { formatList } from './formatList'
import { markdownPage } from './paging'
import { pdfToImages } from './pdfToImages'

/** The largest file any format accepts; the format's own limit then gives the precise error. */
const MAX_READ_BYTES = Math.max(...Object.values(defaultLimits).map((limit) => limit.maxBytes))
export const DEFAULT_PAGE_CHARS = 12_000

const AgentPath = z
  .string()
  .describe('Workspace path of the file: "/" is the workspace root, e.g. "/inbox/report.pdf".')

export interface ConvertToolsetEnvironment {
  /**
   * The app's converter, shared with attachments (one per app: its cache and OCR worker are reused).
   * Without it each tool session gets its own, disposed when the session ends.
   */
  converter?: () => Pick<Converter, 'convert'>
}

export function createConvertToolset(env: ConvertToolsetEnvironment = {}) {
  const ownConverter = sessionState(
    'convert.converter',
    () => createConverter(),
    (converter) => converter.dispose(),
  )
  return defineToolset({
    name: 'convert',
    summary:
      'Reads documents in the workspace as Markdown: Word, PDF, Excel/CSV, PowerPoint, HTML, e-books, zips, images; PDF pages to images.',
    description:
      'Use it for files that files read refuses (not plain text): attachments saved in /inbox, downloads, any document the user points to. ' +
      'The whole file is converted once (results are cached by content) and handed out in pages; the workspace rules apply to the path.',
    methods: {
      toMarkdown: method({
        description:
          'Converts a workspace file to Markdown and returns one page of it (page 1 first). ' +
          'The receipt says format, page and pages; when next_page is present, call again with page = next_page for the rest. ' +
          'Pages are parts of the Markdown of at most max_chars characters (they end at a paragraph where possible), not the pages of a PDF: PDF pages appear as <!-- Page n --> markers in the text. ' +
          'warnings say what could not be read faithfully (e.g. a scanned page read by OCR). A damaged or unsupported file gives an error naming the reason.',
        input: z.object({
          path: AgentPath,
          max_chars: z
            .number()
            .int()
            .min(1_000)
            .max(100_000)
            .default(DEFAULT_PAGE_CHARS)
            .describe('Most characters of Markdown per page (default 12,000).'),
          page: z.number().int().min(1).default(1).describe('Which page of the Markdown (1-based).'),
          accepted_text: z
            .boolean()
            .default(false)
            .describe(
              'Word files: the text as if every tracked change were accepted, without review marks or comments. ' +
                'Otherwise tracked changes read {++inserted++}[#id author date] and {--deleted--}[#id author date], ' +
                'commented text {==text==}[c1], and the comments are listed under "## Comments" (replies indented).',
            ),
        }),
        output: z.object({
          path: z.string(),
          format: ConvertFormat,
          title: z.string().optional(),
          page: z.number().int(),
          pages: z.number().int().describe('How many pages the Markdown has at this max_chars.'),
          next_page: z
            .number()
            .int()
            .optional()
            .describe('Pass as page to read on; absent on the last page.'),
          total_chars: z.number().int().describe('Length of the whole Markdown.'),
          markdown: z.string(),
          warnings: z.array(z.string()),
          summarised: z
            .boolean()
            .optional()
            .describe('true when the converter itself shortened the document (huge sheets).'),
        }),
        examples: [
          { path: '/inbox/report.docx' },
          { args: { path: '/downloads/paper.pdf', page: 2 }, description: 'the second page of its Markdown' },
        ],
        risk: 'read',
        run: async ({ path, max_chars, page, accepted_text }, ctx) => {
          const bytes = await ctx.workspace.readFile(path, { maxBytes: MAX_READ_BYTES })
          const converter = env.converter ? env.converter() : ownConverter.get(ctx)
          const result = await converter.convert(
            {
              name: displayName(path),
              bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
            },
            { signal: ctx.signal, ...(accepted_text && { acceptedText: true }) },
          )
          const part = markdownPage(result.markdown, max_chars, page)
          if (!part) {
            const pages = markdownPage(result.markdown, max_chars, 1)?.pages ?? 1
            throw new AppError(
              'VALIDATION_FAILED',
              `${path} has ${pages} page${pages === 1 ? '' : 's'} of Markdown at max_chars ${max_chars}; page ${page} is past the end.`,
            )
          }
          return {
            path,
            format: result.format,
            ...(result.title && { title: result.title }),
            page: part.page,
            pages: part.pages,
            ...(part.page < part.pages && { next_page: part.page + 1 }),
            total_chars: result.markdown.length,
            markdown: part.text,
            warnings: result.warnings,
            ...(result.truncated && { summarised: true }),
          }
        },
      }),
      pdfToImages,
      formats: method({
        description:
          'Lists the formats to_markdown reads, with their file extensions and what the Markdown keeps.',
        input: z.object({}),
        output: z.object({
          formats: z.array(
            z.object({ format: ConvertFormat, extensions: z.array(z.string()), note: z.string() }),
          ),
        }),
        risk: 'read',
        run: () => ({ formats: formatList() }),
      }),
    },
  })
}
