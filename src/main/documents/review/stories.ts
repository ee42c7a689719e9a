import { relsPathOf } from '../edit/docxPackage'
import { elements, partDom, type WordFile } from './wordXml'

/** Which parts of a document a review edit reaches. */
export type StoryChoice = 'body' | 'headers' | 'footers' | 'all'

/** One text part of a document: the body, a header, a footer, the footnotes or the endnotes. */
export interface Story {
  /** How receipts name it: body, header1, footer2, footnotes, endnotes. */
  part: string
  /** The package part, e.g. word/header1.xml. */
  name: string
  doc: Document
}

const KINDS = ['header', 'footer', 'footnotes', 'endnotes'] as const
type Kind = (typeof KINDS)[number]

const wanted = (kind: Kind, choice: StoryChoice) =>
  choice === 'all' ||
  (choice === 'headers' && kind === 'header') ||
  (choice === 'footers' && kind === 'footer')

/**
 * The parts an edit reaches, body first, then headers, footers, footnotes and endnotes in the order of
 * their part names; `all` is every one of them, as Word's Replace All and Accept All do.
 */
export function stories(file: WordFile, choice: StoryChoice): Story[] {
  const out: Story[] =
    choice === 'body' || choice === 'all' ? [{ part: 'body', name: file.pkg.main, doc: file.doc }] : []
  const rels = partDom(file, relsPathOf(file.pkg.main))
  if (!rels) return out
  const base = file.pkg.main.replace(/[^/]*$/, '')
  const found: Array<{ kind: Kind; name: string }> = []
  for (const rel of elements(rels, 'Relationship')) {
    const type = rel.getAttribute('Type') ?? ''
    const kind = KINDS.find((k) => type.endsWith(`/${k}`))
    const target = rel.getAttribute('Target')
    if (!kind || !target || rel.getAttribute('TargetMode') === 'External' || !wanted(kind, choice)) continue
    const name = target.startsWith('/') ? target.slice(1) : `${base}${target}`
    if (file.pkg.files.has(name) && !found.some((f) => f.name === name)) found.push({ kind, name })
  }
  const order = (n: string) => Number(/(\d+)\.xml$/.exec(n)?.[1] ?? 0)
  found.sort((a, b) => KINDS.indexOf(a.kind) - KINDS.indexOf(b.kind) || order(a.name) - order(b.name))
  for (const { name } of found) {
    const doc = partDom(file, name)
    if (doc) out.push({ part: name.replace(/^.*\//, '').replace(/\.xml$/, ''), name, doc })
  }
  return out
}
