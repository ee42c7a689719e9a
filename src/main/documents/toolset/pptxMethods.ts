import { z } from 'zod'
import { AppError } from '../../../shared/errors'
import { method, type ToolContext } from '../../tools'
import type { DocumentBrowser } from '../chromium/documentBrowser'
import { dirOf } from '../createDocuments'
import type { DeckSize } from '../pptx/buildDeck'

const api = () => import('../pptx/deckApi')

const MAX_PPTX_BYTES = 200 * 1024 * 1024

const DeckMarkdown = z
  .string()
  .min(1)
  .max(2_000_000)
  .describe(
    'One slide per top-level heading (# Title); under it bullets (- item, nested lists indent), paragraphs, GFM tables, ' +
      '![alt](/pictures/x.png) workspace pictures and ```mermaid diagrams (drawn as pictures beside the text). ' +
      'A paragraph starting "Notes:" starts the speaker notes, to the end of the slide.',
  )

const DeckReceipt = z.object({
  path: z.string(),
  bytes: z.number().int(),
  slides: z.array(
    z.object({
      number: z.number().int(),
      title: z.string().describe('Read back from the saved deck.'),
      layout: z
        .string()
        .describe(
          'On a template or an existing deck: the name of the layout the slide is on, read back from the saved deck; otherwise how Bureau laid it out.',
        ),
      contents: z.array(z.string()),
    }),
  ),
  total_slides: z.number().int().describe('Slides in the saved deck.'),
  warnings: z.array(z.string()),
  backup: z.string().optional(),
  version: z.string().optional(),
})
type DeckReceipt = z.infer<typeof DeckReceipt>

function requirePptx(path: string): void {
  if (!/\.pptx$/i.test(path))
    throw new AppError(
      'VALIDATION_FAILED',
      `The path must end in .pptx, e.g. /decks/monday.pptx (got ${path}).`,
    )
}

const EMU_PER_INCH = 914400

async function render(
  ctx: ToolContext,
  browser: DocumentBrowser,
  markdown: string,
  path: string,
  size: DeckSize | { width: number; height: number },
  firstIsTitle: boolean,
) {
  const { buildDeck, outlineSlides, prepareAssets, slideKind } = await api()
  const { slides, root } = outlineSlides(markdown)
  const placements = slides.map((outline, i) => ({
    outline,
    kind: slideKind(outline, firstIsTitle && i === 0),
  }))
  const assets = await prepareAssets(root, {
    workspace: ctx.workspace,
    baseDir: dirOf(path),
    browser,
    png: true,
  })
  const deck = await buildDeck(slides, assets, { size })
  return { ...deck, placements, warnings: [...assets.warnings, ...deck.warnings] }
}

async function receiptOf(
  ctx: ToolContext,
  written: { path: string; bytes: number; backup?: string; version?: string },
  plans: Array<{ title: string; layout: string; contents: string[] }>,
  first: number,
  warnings: string[],
  onLayouts = false,
): Promise<DeckReceipt> {
  const { deckLayoutNames, deckTitles } = await api()
  const stored = new Uint8Array(await ctx.workspace.readFile(written.path, { maxBytes: MAX_PPTX_BYTES }))
  const titles = deckTitles(stored, written.path)
  const layouts = onLayouts ? deckLayoutNames(stored, written.path) : []
  if (titles.length !== first - 1 + plans.length)
    throw new AppError(
      'INTERNAL',
      `The saved deck has ${titles.length} slides, not ${first - 1 + plans.length}.`,
    )
  return {
    path: written.path,
    bytes: written.bytes,
    slides: plans.map((plan, i) => ({
      number: first + i,
      title: titles[first - 1 + i] ?? '',
      layout: layouts[first - 1 + i] ?? plan.layout,
      contents: plan.contents,
    })),
    total_slides: titles.length,
    warnings,
    ...(written.backup ? { backup: written.backup } : {}),
    ...(written.version ? { version: written.version } : {}),
  }
}

/** `create_pptx` and `append_slides`: PowerPoint decks from Markdown through pptxgenjs. */
export function pptxMethods(browserOf: (ctx: ToolContext) => DocumentBrowser) {
  return {
    createPptx: method({
      description:
        'Writes a PowerPoint deck (.pptx) from a Markdown outline and returns each slide’s title (read back from the file), layout and contents.',
      input: z.object({
        path: z.string().min(1),
        markdown: DeckMarkdown,
        template: z
          .string()
          .optional()
          .describe(
            'A .pptx in the workspace whose slide layouts, master and theme the deck uses (its own slides are left out): the first slide on its title layout, a heading-only slide on its section header, others on title and content (two content when text and a picture or table share a slide).',
          ),
        size: z.enum(['16:9', '4:3']).default('16:9'),
        overwrite: z.boolean().default(false),
      }),
      output: DeckReceipt,
      examples: [
        {
          path: '/decks/monday.pptx',
          markdown: '# Q3 review\n\n# Sales\n\n- North up 12%\n- South flat\n\nNotes: mention the new hire.',
        },
      ],
      risk: 'write',
      run: async ({ path, markdown, template, size, overwrite }, ctx) => {
        requirePptx(path)
        const { openDeck, slideSize, templateDeck } = await api()
        if (!overwrite && (await ctx.workspace.exists(path)))
          throw new AppError(
            'CONFLICT',
            `${path} exists; pass overwrite: true to replace it (a backup is kept).`,
          )
        const templateBytes = template
          ? new Uint8Array(await ctx.workspace.readFile(template, { maxBytes: MAX_PPTX_BYTES }))
          : undefined
        const templateSize = templateBytes
          ? slideSize(openDeck(templateBytes, template ?? ''), template ?? '')
          : undefined
        const deck = await render(
          ctx,
          browserOf(ctx),
          markdown,
          path,
          templateSize
            ? { width: templateSize.cx / EMU_PER_INCH, height: templateSize.cy / EMU_PER_INCH }
            : size,
          true,
        )
        if (!template || !templateBytes) {
          const written = await ctx.workspace.writeFile(path, deck.bytes, {
            overwrite,
            message: `create ${path}`,
          })
          return receiptOf(ctx, written, deck.plans, 1, deck.warnings)
        }
        const grafted = templateDeck(templateBytes, deck.bytes, template, deck.placements)
        const written = await ctx.workspace.writeFile(path, grafted.bytes, {
          overwrite,
          message: `create ${path} on ${template}`,
        })
        return receiptOf(ctx, written, deck.plans, 1, [...deck.warnings, ...grafted.warnings], true)
      },
    }),
    appendSlides: method({
      description:
        'Adds slides written from a Markdown outline at the end of an existing .pptx, on that deck’s own layouts (a heading-only slide on its section header, others on title and content or two content), their title and text in the layouts’ placeholders; the existing slides stay as they were.',
      input: z.object({ path: z.string().min(1), markdown: DeckMarkdown }),
      output: DeckReceipt,
      examples: [
        { path: '/decks/monday.pptx', markdown: '# Next steps\n\n- Hire two engineers\n- Ship in May' },
      ],
      risk: 'write',
      run: async ({ path, markdown }, ctx) => {
        requirePptx(path)
        const { appendDeck, deckTitles, openDeck, slideSize } = await api()
        const original = new Uint8Array(await ctx.workspace.readFile(path, { maxBytes: MAX_PPTX_BYTES }))
        const files = openDeck(original, path)
        const before = deckTitles(original, path).length
        const { cx, cy } = slideSize(files, path)
        const size = { width: cx / EMU_PER_INCH, height: cy / EMU_PER_INCH }
        const deck = await render(ctx, browserOf(ctx), markdown, path, size, false)
        const appended = appendDeck(original, deck.bytes, path, deck.placements)
        const written = await ctx.workspace.writeFile(path, appended.bytes, {
          overwrite: true,
          message: `append slides to ${path}`,
        })
        return receiptOf(ctx, written, deck.plans, before + 1, [...deck.warnings, ...appended.warnings], true)
      },
    }),
  }
}
