import { z } from 'zod'
import { AppError } from '../../../shared/errors'
import { method, type ToolContext } from '../../tools'
import type { Touched } from '../review/paragraphs'
import type { WordFile } from '../review/wordXml'

const api = () => import('../review/reviewApi')

const MAX_DOCX_BYTES = 100 * 1024 * 1024
const MAX_PARAGRAPHS_IN_RECEIPT = 50
const DEFAULT_AUTHOR = 'Bureau'

const Path = z.string().min(1).describe('A .docx in the workspace.')
const Author = z
  .string()
  .min(1)
  .max(100)
  .optional()
  .describe('Shown as the author in Word (default "Bureau").')
const Occurrence = z
  .number()
  .int()
  .min(1)
  .optional()
  .describe('Only this occurrence (1 = first); all when absent.')

const Part = z
  .enum(['body', 'headers', 'footers', 'all'])
  .default('all')
  .describe(
    'Where to work: the body, the headers, the footers, or everywhere (body, headers, footers, footnotes and endnotes), as Word’s Replace All and Accept All do.',
  )

const Paragraph = z.object({
  part: z
    .string()
    .optional()
    .describe(
      'The header, footer or notes part the paragraph is in (header1, footer2, footnotes); absent for the body.',
    ),
  paragraph: z
    .number()
    .int()
    .describe('1-based, counting every paragraph of its part (table cells included).'),
  before: z.string(),
  after: z
    .string()
    .describe('Read back from the saved file; tracked changes as {++inserted++} / {--deleted--}.'),
})

const ReviewReceipt = z.object({
  path: z.string(),
  bytes: z.number().int(),
  changed: z.string().describe('What was done, in one sentence.'),
  paragraphs: z.array(Paragraph),
  paragraphs_omitted: z
    .number()
    .int()
    .optional()
    .describe('Touched paragraphs past the first 50, not listed.'),
  change_ids: z.array(z.string()).optional(),
  comment_id: z.string().optional(),
  backup: z.string().optional(),
  version: z.string().optional(),
})
type ReviewReceipt = z.infer<typeof ReviewReceipt>

function requireDocx(path: string): void {
  if (!/\.(docx|docm|dotx)$/i.test(path))
    throw new AppError('VALIDATION_FAILED', `${path} is not a Word document; the path must end in .docx.`)
}

async function openFrom(ctx: ToolContext, path: string): Promise<WordFile> {
  requireDocx(path)
  const { openWord } = await api()
  return openWord(new Uint8Array(await ctx.workspace.readFile(path, { maxBytes: MAX_DOCX_BYTES })), path)
}

interface Edited {
  touched: Touched
  changed: string
  changeIds?: string[]
  commentId?: string
}

/** Saves the edited file through the workspace, then builds the receipt from the file as stored. */
async function commit(
  ctx: ToolContext,
  file: WordFile,
  edited: Edited,
  options: { target?: string; overwrite?: boolean; message: string },
): Promise<ReviewReceipt> {
  const {
    bodyParagraphs,
    COMMENTS_REL,
    elements,
    partDom,
    relatedPart,
    reviewText,
    saveWord,
    stories,
    trackedChanges,
  } = await api()
  const target = options.target ?? file.path
  const touched = edited.touched.list(stories(file, 'all'))
  const written = await ctx.workspace.writeFile(target, saveWord(file), {
    overwrite: options.overwrite ?? true,
    message: options.message,
  })
  const stored = await openFrom(ctx, target)
  const storedParts = stories(stored, 'all')
  const paragraphsOf = new Map(storedParts.map((s) => [s.part, bodyParagraphs(s.doc)]))
  if (edited.changeIds) {
    const present = new Set(storedParts.flatMap((s) => trackedChanges(s.doc)).map((c) => c.id))
    const lost = edited.changeIds.filter((id) => !present.has(id))
    if (lost.length > 0)
      throw new AppError('INTERNAL', `The saved file lacks the tracked change(s) ${lost.join(', ')}.`)
  }
  if (edited.commentId !== undefined) {
    const name = relatedPart(stored, COMMENTS_REL)
    const comments = name ? partDom(stored, name) : undefined
    if (
      !comments ||
      !elements(comments, 'w:comment').some((c) => c.getAttribute('w:id') === edited.commentId)
    )
      throw new AppError('INTERNAL', `The saved file lacks comment ${edited.commentId}.`)
  }
  const listed = touched.slice(0, MAX_PARAGRAPHS_IN_RECEIPT).map((t) => {
    const p = paragraphsOf.get(t.part)?.[t.paragraph - 1]
    return {
      ...(t.part === 'body' ? {} : { part: t.part }),
      paragraph: t.paragraph,
      before: t.before,
      after: p ? reviewText(p) : '',
    }
  })
  return {
    path: written.path,
    bytes: written.bytes,
    changed: edited.changed,
    paragraphs: listed,
    ...(touched.length > listed.length ? { paragraphs_omitted: touched.length - listed.length } : {}),
    ...(edited.changeIds ? { change_ids: edited.changeIds } : {}),
    ...(edited.commentId !== undefined ? { comment_id: edited.commentId } : {}),
    ...(written.backup ? { backup: written.backup } : {}),
    ...(written.version ? { version: written.version } : {}),
  }
}

const Selection = {
  path: Path,
  author: z.string().min(1).optional().describe('Only the changes by this author.'),
  ids: z
    .array(z.string().min(1))
    .min(1)
    .optional()
    .describe('Only these change ids (the #id of {++…++}[#id …]).'),
}

function decideMethod(accept: boolean) {
  const verb = accept ? 'Accepts' : 'Rejects'
  return method({
    description: `${verb} tracked changes of a .docx: all of them, those by one author, or those with the given ids. Other changes stay as they are.`,
    input: z.object({ ...Selection, part: Part }),
    output: ReviewReceipt,
    examples: [{ path: '/contracts/lease.docx', author: 'Alice' }],
    risk: 'write',
    run: async ({ path, author, ids, part }, ctx) => {
      const file = await openFrom(ctx, path)
      const review = await api()
      const docs = review.stories(file, part).map((s) => s.doc)
      const outcome = review.decideChanges(docs, { author, ids }, accept)
      const which = outcome.decided.map((d) => `#${d.id}`).join(', ')
      return commit(
        ctx,
        file,
        {
          touched: outcome.touched,
          changed: `${accept ? 'Accepted' : 'Rejected'} ${outcome.decided.length} tracked change(s): ${which}.`,
        },
        { message: `${accept ? 'accept' : 'reject'} changes in ${path}` },
      )
    },
  })
}

/** The review methods of the documents toolset: tracked changes, comments, find/replace, templates. */
export function reviewMethods() {
  return {
    reviewStatus: method({
      description:
        "Lists a .docx's tracked changes (id, kind, author, date, text) and comments (id, author, text, reply_to, resolved), for accept_changes, reject_changes and reply_to_comment.",
      input: z.object({ path: Path }),
      output: z.object({
        changes: z.array(
          z.object({
            id: z.string(),
            kind: z.string(),
            author: z.string(),
            date: z.string(),
            text: z.string(),
            part: z.string().optional().describe('header1, footer2, footnotes...; absent for the body.'),
          }),
        ),
        comments: z.array(
          z.object({
            id: z.string(),
            author: z.string(),
            text: z.string(),
            reply_to: z.string().optional(),
            resolved: z.boolean(),
          }),
        ),
        paragraphs: z.number().int(),
      }),
      examples: [{ path: '/contracts/lease.docx' }],
      risk: 'read',
      run: async ({ path }, ctx) => {
        const file = await openFrom(ctx, path)
        const review = await api()
        return {
          changes: review.stories(file, 'all').flatMap((story) =>
            review.trackedChanges(story.doc).map(({ id, kind, author, date, text }) => ({
              id,
              kind,
              author,
              date,
              text,
              ...(story.part === 'body' ? {} : { part: story.part }),
            })),
          ),
          comments: (await api()).listComments(file),
          paragraphs: (await api()).bodyParagraphs(file.doc).length,
        }
      },
    }),
    suggestEdit: method({
      description:
        'Proposes replacing text in a .docx as a tracked change (Word shows it struck through and inserted, with author and date, for someone to accept or reject); the formatting of the text is kept. Returns the paragraphs before/after and the change ids.',
      input: z.object({
        path: Path,
        find: z.string().min(1).max(2000),
        replace: z.string().max(10_000).describe('May be empty: a tracked deletion.'),
        author: Author,
        occurrence: Occurrence,
        match_case: z.boolean().default(true),
        whole_word: z.boolean().default(false),
        part: Part,
      }),
      output: ReviewReceipt,
      examples: [{ path: '/contracts/lease.docx', find: '30 days', replace: '45 days' }],
      risk: 'write',
      run: async ({ path, find, replace, author, occurrence, match_case, whole_word, part }, ctx) => {
        const file = await openFrom(ctx, path)
        const review = await api()
        const outcome = review.suggestEdit(
          review.stories(file, part).map((s) => s.doc),
          {
            find,
            replace,
            author: author ?? DEFAULT_AUTHOR,
            occurrence,
            matchCase: match_case,
            wholeWord: whole_word,
          },
        )
        return commit(
          ctx,
          file,
          {
            touched: outcome.touched,
            changeIds: outcome.changeIds,
            changed: `Suggested "${find}" → "${replace}" as tracked changes at ${outcome.matches} place(s).`,
          },
          { message: `suggest edits in ${path}` },
        )
      },
    }),
    acceptChanges: decideMethod(true),
    rejectChanges: decideMethod(false),
    findReplace: method({
      description:
        'Replaces text everywhere in a .docx (body, headers, footers and notes unless part says otherwise; or one occurrence), also where Word split a word into several runs; the first run’s formatting (bold, italic, font) is kept. Not tracked: use suggest_edit for a reviewable change.',
      input: z.object({
        path: Path,
        find: z.string().min(1).max(2000),
        replace: z.string().max(10_000),
        match_case: z.boolean().default(true),
        whole_word: z.boolean().default(false),
        occurrence: Occurrence,
        part: Part,
      }),
      output: ReviewReceipt,
      examples: [{ path: '/letters/offer.docx', find: 'Acme Ltd', replace: 'Acme GmbH', whole_word: true }],
      risk: 'write',
      run: async ({ path, find, replace, match_case, whole_word, occurrence, part }, ctx) => {
        const file = await openFrom(ctx, path)
        const review = await api()
        const outcome = review.replaceText(
          review.stories(file, part).map((s) => s.doc),
          {
            find,
            replace,
            matchCase: match_case,
            wholeWord: whole_word,
            occurrence,
          },
        )
        return commit(
          ctx,
          file,
          {
            touched: outcome.touched,
            changed: `Replaced "${find}" with "${replace}" at ${outcome.matches} place(s).`,
          },
          { message: `find and replace in ${path}` },
        )
      },
    }),
    addComment: method({
      description:
        'Adds a Word comment to a .docx, on the given text (anchor_text, first occurrence unless occurrence) or on a whole paragraph (1-based, as in receipts).',
      input: z
        .object({
          path: Path,
          anchor_text: z.string().min(1).max(2000).optional(),
          paragraph: z.number().int().min(1).optional(),
          occurrence: z.number().int().min(1).optional(),
          text: z.string().min(1).max(10_000),
          author: Author,
        })
        .refine((a) => (a.anchor_text === undefined) !== (a.paragraph === undefined), {
          message: 'Pass either anchor_text or paragraph.',
        }),
      output: ReviewReceipt,
      examples: [
        { path: '/contracts/lease.docx', anchor_text: 'within 30 days', text: 'Is 30 days enough?' },
      ],
      risk: 'write',
      run: async ({ path, anchor_text, paragraph, occurrence, text, author }, ctx) => {
        const file = await openFrom(ctx, path)
        const outcome = (await api()).addComment(file, {
          anchorText: anchor_text,
          paragraph,
          occurrence,
          text,
          author: author ?? DEFAULT_AUTHOR,
        })
        return commit(
          ctx,
          file,
          {
            touched: outcome.touched,
            commentId: outcome.commentId,
            changed: `Added comment ${outcome.commentId} on "${outcome.anchor.slice(0, 80)}".`,
          },
          { message: `comment in ${path}` },
        )
      },
    }),
    replyToComment: method({
      description:
        "Replies in a Word comment's thread (the comment id from review_status or the Markdown's [cN]).",
      input: z.object({
        path: Path,
        comment_id: z.string().regex(/^c?\d+$/),
        text: z.string().min(1).max(10_000),
        author: Author,
      }),
      output: ReviewReceipt,
      examples: [{ path: '/contracts/lease.docx', comment_id: '3', text: 'Agreed, changed to 45.' }],
      risk: 'write',
      run: async ({ path, comment_id, text, author }, ctx) => {
        const file = await openFrom(ctx, path)
        const commentId = comment_id.replace(/^c/, '')
        const outcome = (await api()).replyToComment(file, {
          commentId,
          text,
          author: author ?? DEFAULT_AUTHOR,
        })
        return commit(
          ctx,
          file,
          {
            touched: outcome.touched,
            commentId: outcome.commentId,
            changed: `Replied to comment ${commentId} (reply ${outcome.commentId}).`,
          },
          { message: `reply to comment in ${path}` },
        )
      },
    }),
    resolveComment: method({
      description: "Marks a Word comment's thread resolved (or open again with resolved: false).",
      input: z.object({
        path: Path,
        comment_id: z.string().regex(/^c?\d+$/),
        resolved: z.boolean().default(true),
      }),
      output: ReviewReceipt,
      examples: [{ path: '/contracts/lease.docx', comment_id: '3' }],
      risk: 'write',
      run: async ({ path, comment_id, resolved }, ctx) => {
        const file = await openFrom(ctx, path)
        const commentId = comment_id.replace(/^c/, '')
        const review = await api()
        review.resolveComment(file, { commentId, resolved })
        return commit(
          ctx,
          file,
          {
            touched: new review.Touched(),
            commentId,
            changed: `Comment ${commentId} marked ${resolved ? 'resolved' : 'open'}.`,
          },
          { message: `resolve comment in ${path}` },
        )
      },
    }),
    fillTemplate: method({
      description:
        'Fills a Word template: {{name}} placeholders (also split across runs), content controls by tag or title (text, date, check box, list), and table rows repeated per item of a list value ({{items.field}} in the row, or a repeating content control tagged "items"). With template, the filled copy is written to path; without, path is filled in place. A placeholder without a value is an error and nothing is written.',
      input: z.object({
        path: Path,
        template: z
          .string()
          .min(1)
          .optional()
          .describe('A .docx or .dotx to fill; path is then the new file.'),
        values: z.record(
          z.string().min(1),
          z.union([
            z.string(),
            z.number(),
            z.boolean(),
            z.array(z.record(z.string().min(1), z.union([z.string(), z.number(), z.boolean()]))).max(5000),
          ]),
        ),
        overwrite: z
          .boolean()
          .default(false)
          .describe('With template: replace an existing path (a backup is kept).'),
      }),
      output: ReviewReceipt.extend({
        placeholders: z.array(z.object({ name: z.string(), count: z.number().int() })),
        controls: z.array(z.object({ tag: z.string(), type: z.string(), value: z.string() })),
        rows: z.array(z.object({ name: z.string(), rows: z.number().int() })),
        unused: z.array(z.string()).describe('Values no placeholder or control asked for.'),
      }),
      examples: [
        {
          path: '/letters/offer-jane.docx',
          template: '/templates/offer.dotx',
          values: { name: 'Jane Roe', start: '2025-03-01', items: [{ what: 'Laptop', qty: 1 }] },
        },
      ],
      risk: 'write',
      run: async ({ path, template, values, overwrite }, ctx) => {
        requireDocx(path)
        if (template && !overwrite && (await ctx.workspace.exists(path)))
          throw new AppError(
            'CONFLICT',
            `${path} exists; pass overwrite: true to replace it (a backup is kept).`,
          )
        const file = await openFrom(ctx, template ?? path)
        if (template && /\.dotx$/i.test(template)) await asDocument(file)
        const outcome = (await api()).fillTemplate(file.doc, values)
        const receipt = await commit(
          ctx,
          file,
          {
            touched: outcome.touched,
            changed: `Filled ${outcome.placeholders.reduce((n, p) => n + p.count, 0)} placeholder(s), ${outcome.controls.length} content control(s) and ${outcome.rows.reduce((n, r) => n + r.rows, 0)} repeated row(s).`,
          },
          { target: path, overwrite: template ? overwrite : true, message: `fill template ${path}` },
        )
        return {
          ...receipt,
          placeholders: outcome.placeholders,
          controls: outcome.controls,
          rows: outcome.rows,
          unused: outcome.unused,
        }
      },
    }),
  }
}

/** A .dotx's main part declared as a document, so Word opens the filled copy as one. */
async function asDocument(file: WordFile): Promise<void> {
  const { elements, partDom } = await api()
  const types = partDom(file, '[Content_Types].xml')
  if (!types) return
  for (const override of elements(types, 'Override'))
    if (
      override.getAttribute('ContentType') ===
      'application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml'
    )
      override.setAttribute(
        'ContentType',
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
      )
}
