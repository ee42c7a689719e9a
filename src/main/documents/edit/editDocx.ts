import { AppError } from '../../../shared/errors'
import { type Body, type BodyBlock, readBody } from './bodyBlocks'
import { type DocxPackage, openDocx, packDocx, setText, text } from './docxPackage'
import { declareNamespaces, importFragment } from './importFragment'
import { readStyles } from './styles'
import { childrenOf } from './xmlScan'

export type DocxEdit =
  | { kind: 'append'; heading?: string | undefined; occurrence?: number | undefined }
  | { kind: 'replace'; heading: string; occurrence?: number | undefined }

export interface DocxEditResult {
  bytes: Uint8Array
  /** The heading the edit was anchored to, as written in the document. */
  heading?: string
  removedBlocks: number
  addedBlocks: number
  /** Headings that follow the edit, so the model can check where it landed. */
  before?: string
  warnings: string[]
}

interface Loaded {
  pkg: DocxPackage
  xml: string
  body: Body
}

function load(bytes: Uint8Array, path: string): Loaded {
  const pkg = openDocx(bytes, path)
  const xml = text(pkg, pkg.main) ?? ''
  const styles = readStyles(text(pkg, 'word/styles.xml'))
  return { pkg, xml, body: readBody(xml, styles, pkg.main) }
}

/** The headings of a document, for error messages and the model's next try. */
export function documentHeadings(bytes: Uint8Array, path: string): string[] {
  return load(bytes, path).body.blocks.flatMap((b) =>
    b.heading ? [`${'#'.repeat(b.heading.level)} ${b.heading.text}`] : [],
  )
}

const normal = (s: string) => s.normalize('NFC').replace(/\s+/g, ' ').trim().toLowerCase()

function findHeading(body: Body, wanted: string, occurrence: number | undefined, path: string): number {
  const headings = body.blocks.flatMap((b, i) => (b.heading ? [{ i, heading: b.heading }] : []))
  const target = normal(wanted.replace(/^#+\s*/, ''))
  const found = headings.filter((h) => normal(h.heading.text) === target)
  const listed = headings.map((h) => `${'#'.repeat(h.heading.level)} ${h.heading.text}`).join('; ')
  if (found.length === 0)
    throw new AppError(
      'NOT_FOUND',
      headings.length > 0
        ? `No heading "${wanted}" in ${path}. Its headings: ${listed}.`
        : `${path} has no headings (no paragraph uses a Heading style); append at the end instead.`,
    )
  if (found.length > 1 && occurrence === undefined)
    throw new AppError(
      'VALIDATION_FAILED',
      `"${wanted}" is a heading ${found.length} times in ${path}; pass occurrence (1-${found.length}).`,
    )
  const pick = found[(occurrence ?? 1) - 1]
  if (!pick) throw new AppError('VALIDATION_FAILED', `There are only ${found.length} headings "${wanted}".`)
  return pick.i
}

/** Index of the first block after the heading's section: the next heading of the same or a higher level. */
function sectionEnd(blocks: BodyBlock[], headingIndex: number): number {
  const level = blocks[headingIndex]?.heading?.level ?? 1
  for (let i = headingIndex + 1; i < blocks.length; i += 1) {
    const next = blocks[i]?.heading
    if (next && next.level <= level) return i
  }
  return blocks.length
}

/** The body content of a generated document, without its closing section properties. */
function fragmentOf(generated: DocxPackage): { fragment: string; blocks: number; source: string } {
  const source = text(generated, generated.main) ?? ''
  const { children } = childrenOf(source, ['w:document', 'w:body'], 'generated document')
  const kept = children.filter((c) => c.name !== 'w:sectPr')
  return { fragment: kept.map((c) => source.slice(c.start, c.end)).join(''), blocks: kept.length, source }
}

/**
 * Appends or replaces blocks of an existing .docx. Everything outside the edited range of document.xml is
 * kept as it was, character for character; other parts change only where the new content needs a picture,
 * a link, a list definition or a style.
 */
export function editDocx(
  targetBytes: Uint8Array,
  generatedBytes: Uint8Array,
  edit: DocxEdit,
  path: string,
): DocxEditResult {
  const { pkg, xml, body } = load(targetBytes, path)
  const generated = openDocx(generatedBytes, 'generated document')
  const warnings: string[] = []
  let from = body.blocks.length
  let to = body.blocks.length
  let heading: string | undefined
  if (edit.heading !== undefined) {
    const index = findHeading(body, edit.heading, edit.occurrence, path)
    heading = body.blocks[index]?.heading?.text
    from = edit.kind === 'replace' ? index + 1 : sectionEnd(body.blocks, index)
    to = sectionEnd(body.blocks, index)
  }
  const removed = body.blocks.slice(from, edit.kind === 'replace' ? to : from)
  if (removed.some((b) => b.sectionBreak))
    throw new AppError(
      'VALIDATION_FAILED',
      `The section under "${heading}" contains a section break (a change of page layout or headers); edit it in Word.`,
    )
  const start = body.blocks[from]?.start ?? body.end
  const end =
    edit.kind === 'replace' && removed.length > 0 ? (removed[removed.length - 1]?.end ?? start) : start
  const { fragment, blocks, source } = fragmentOf(generated)
  const imported = importFragment(fragment, { source: generated, target: pkg, warnings }, xml)
  const spliced = xml.slice(0, start) + imported + xml.slice(end)
  setText(pkg, pkg.main, declareNamespaces(spliced, imported, source, pkg.main))
  const after = body.blocks.slice(edit.kind === 'replace' ? to : from).find((b) => b.heading)?.heading?.text
  return {
    bytes: packDocx(pkg),
    ...(heading !== undefined ? { heading } : {}),
    removedBlocks: removed.length,
    addedBlocks: blocks,
    ...(after !== undefined ? { before: after } : {}),
    warnings,
  }
}
