import { DOMParser, XMLSerializer } from '@xmldom/xmldom'
import { AppError } from '../../../shared/errors'
import {
  type DocxPackage,
  openDocx,
  packDocx,
  REL,
  relsPathOf,
  setText as setPart,
  text,
} from '../edit/docxPackage'

export const W_NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main'
export const W14_NS = 'http://schemas.microsoft.com/office/word/2010/wordml'
export const W15_NS = 'http://schemas.microsoft.com/office/word/2012/wordml'
const MC_NS = 'http://schemas.openxmlformats.org/markup-compatibility/2006'
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships'
const CONTENT_TYPES = 'http://schemas.openxmlformats.org/package/2006/content-types'

/** A .docx opened for review edits: its parts as bytes, the parts being edited as DOMs. */
export interface WordFile {
  pkg: DocxPackage
  doc: Document
  path: string
  parts: Map<string, Document>
}

export function parseXml(xml: string, part: string, path: string): Document {
  const fail = (message: string) => {
    throw new AppError(
      'VALIDATION_FAILED',
      `The document ${path} is damaged (${part}: ${String(message).split('\n')[0]}); it was not changed.`,
    )
  }
  const doc = new DOMParser({
    errorHandler: { warning: () => {}, error: fail, fatalError: fail },
  }).parseFromString(xml, 'text/xml')
  if (!doc.documentElement) fail('no root element')
  return doc
}

export function openWord(bytes: Uint8Array, path: string): WordFile {
  const pkg = openDocx(bytes, path)
  const doc = parseXml(text(pkg, pkg.main) ?? '', pkg.main, path)
  if (doc.getElementsByTagName('w:body').length !== 1)
    throw new AppError('VALIDATION_FAILED', `The document ${path} is damaged (no body); it was not changed.`)
  return { pkg, doc, path, parts: new Map([[pkg.main, doc]]) }
}

/** Another XML part of the package as a DOM (kept, so the changes are written back), or undefined. */
export function partDom(file: WordFile, name: string): Document | undefined {
  const open = file.parts.get(name)
  if (open) return open
  const xml = text(file.pkg, name)
  if (xml === undefined) return undefined
  const doc = parseXml(xml, name, file.path)
  file.parts.set(name, doc)
  return doc
}

export function saveWord(file: WordFile): Uint8Array {
  const serializer = new XMLSerializer()
  for (const [name, doc] of file.parts) setPart(file.pkg, name, serializer.serializeToString(doc))
  return packDocx(file.pkg)
}

export const elements = (parent: Element | Document, name: string): Element[] =>
  Array.from(parent.getElementsByTagName(name))

export function childElements(parent: Element): Element[] {
  const out: Element[] = []
  for (let node = parent.firstChild; node; node = node.nextSibling)
    if (node.nodeType === 1) out.push(node as Element)
  return out
}

export const firstChild = (parent: Element, name: string): Element | undefined =>
  childElements(parent).find((c) => c.nodeName === name)

export function make(doc: Document, name: string, attrs: Record<string, string> = {}): Element {
  const element = doc.createElementNS(nsOf(name), name)
  for (const [key, value] of Object.entries(attrs)) element.setAttributeNS(nsOf(key), key, value)
  return element
}

function nsOf(name: string): string | null {
  if (name.startsWith('w:')) return W_NS
  if (name.startsWith('w14:')) return W14_NS
  if (name.startsWith('w15:')) return W15_NS
  if (name.startsWith('xml:')) return 'http://www.w3.org/XML/1998/namespace'
  return null
}

export function setText(element: Element, value: string): void {
  while (element.firstChild) element.removeChild(element.firstChild)
  element.appendChild(element.ownerDocument.createTextNode(value))
  if (element.nodeName === 'w:t' || element.nodeName === 'w:delText')
    element.setAttributeNS('http://www.w3.org/XML/1998/namespace', 'xml:space', 'preserve')
}

export function rename(element: Element, name: string): Element {
  const renamed = make(element.ownerDocument, name)
  for (const attr of Array.from(element.attributes))
    renamed.setAttributeNS(attr.namespaceURI, attr.name, attr.value)
  while (element.firstChild) renamed.appendChild(element.firstChild)
  element.parentNode?.replaceChild(renamed, element)
  return renamed
}

/** Moves an element's children to where it is and removes it. */
export function unwrap(element: Element): void {
  const parent = element.parentNode
  if (!parent) return
  while (element.firstChild) parent.insertBefore(element.firstChild, element)
  parent.removeChild(element)
}

export const remove = (node: Node) => node.parentNode?.removeChild(node)

export function insertAfter(node: Node, after: Node): void {
  after.parentNode?.insertBefore(node, after.nextSibling)
}

const ID_TAGS = new Set([
  'w:ins',
  'w:del',
  'w:moveFrom',
  'w:moveTo',
  'w:comment',
  'w:commentRangeStart',
  'w:rPrChange',
  'w:pPrChange',
])

/** The highest numeric w:id in the given parts plus one: review marks and comments share no ids. */
export function nextId(...docs: (Document | undefined)[]): number {
  let max = 0
  // One walk by hand: a getElementsByTagName per tag walks the whole part eight times per edit.
  const walk = (parent: Node) => {
    for (let node = parent.firstChild; node; node = node.nextSibling) {
      if (node.nodeType !== 1) continue
      if (ID_TAGS.has(node.nodeName)) {
        const id = Number((node as Element).getAttribute('w:id'))
        if (Number.isFinite(id) && id > max) max = id
      }
      if (node.firstChild) walk(node)
    }
  }
  for (const doc of docs) if (doc) walk(doc)
  return max + 1
}

export const wordDate = (now = new Date()) => now.toISOString().replace(/\.\d{3}Z$/, 'Z')

/** A declared namespace prefix on a part's root (Word's parts declare what they use there). */
export function declare(doc: Document, prefix: string, uri: string): void {
  const root = doc.documentElement
  if (!root.getAttribute(`xmlns:${prefix}`)) root.setAttribute(`xmlns:${prefix}`, uri)
}

/** Marks w14/w15 as ignorable on a part's root, as Word does, so older readers skip those attributes. */
export function ignorable(doc: Document, prefix: string): void {
  declare(doc, 'mc', MC_NS)
  const root = doc.documentElement
  const list = (root.getAttribute('mc:Ignorable') ?? '').split(/\s+/).filter(Boolean)
  if (!list.includes(prefix)) root.setAttribute('mc:Ignorable', [...list, prefix].join(' '))
}

/**
 * A part of the package, created when missing with its content type and its relationship from the main
 * document (comments.xml, commentsExtended.xml).
 */
export function ensurePart(
  file: WordFile,
  spec: { name: string; contentType: string; relType: string; root: string },
): Document {
  const existing = relatedPart(file, spec.relType)
  if (existing) {
    const doc = partDom(file, existing)
    if (doc) return doc
  }
  const relsName = relsPathOf(file.pkg.main)
  const rels =
    partDom(file, relsName) ??
    (() => {
      const doc = parseXml(`<Relationships xmlns="${PKG_REL}"/>`, relsName, file.path)
      file.parts.set(relsName, doc)
      return doc
    })()
  const used = new Set(elements(rels, 'Relationship').map((r) => r.getAttribute('Id')))
  let n = 1
  while (used.has(`rIdBureau${n}`)) n += 1
  const rel = rels.createElementNS(PKG_REL, 'Relationship')
  rel.setAttribute('Id', `rIdBureau${n}`)
  rel.setAttribute('Type', spec.relType)
  rel.setAttribute('Target', spec.name.replace(/^word\//, ''))
  rels.documentElement.appendChild(rel)
  const types = partDom(file, '[Content_Types].xml')
  if (!types)
    throw new AppError(
      'VALIDATION_FAILED',
      `The document ${file.path} is damaged (no [Content_Types].xml); it was not changed.`,
    )
  const override = types.createElementNS(CONTENT_TYPES, 'Override')
  override.setAttribute('PartName', `/${spec.name}`)
  override.setAttribute('ContentType', spec.contentType)
  types.documentElement.appendChild(override)
  const doc = parseXml(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${spec.root}`,
    spec.name,
    file.path,
  )
  file.parts.set(spec.name, doc)
  return doc
}

/** The part the main document relates to with this type (e.g. `word/comments.xml`). */
export function relatedPart(file: WordFile, relType: string): string | undefined {
  const rels = partDom(file, relsPathOf(file.pkg.main))
  if (!rels) return undefined
  const rel = elements(rels, 'Relationship').find((r) => r.getAttribute('Type') === relType)
  const target = rel?.getAttribute('Target')
  if (!target || rel?.getAttribute('TargetMode') === 'External') return undefined
  const base = file.pkg.main.replace(/[^/]*$/, '')
  const name = target.startsWith('/') ? target.slice(1) : `${base}${target}`
  return file.pkg.files.has(name) ? name : undefined
}

export const COMMENTS_REL = `${REL}/comments`
export const COMMENTS_EX_REL = 'http://schemas.microsoft.com/office/2011/relationships/commentsExtended'
