import { posix } from 'node:path'
import { DOMParser, XMLSerializer } from '@xmldom/xmldom'
import { strFromU8, strToU8, unzipSync } from 'fflate'
import { AppError } from '../../../shared/errors'

/** A deck's package: part name → bytes. */
export type DeckFiles = Record<string, Uint8Array>

export function damaged(path: string, reason: string): AppError {
  return new AppError(
    'VALIDATION_FAILED',
    `${path} is not a readable PowerPoint deck (${reason}); nothing was changed.`,
  )
}

export function openDeck(bytes: Uint8Array, path: string): DeckFiles {
  if (bytes[0] !== 0x50 || bytes[1] !== 0x4b) throw damaged(path, 'not a .pptx package')
  let files: DeckFiles
  try {
    files = unzipSync(bytes)
  } catch (error) {
    throw damaged(path, error instanceof Error ? error.message : String(error))
  }
  if (!files['ppt/presentation.xml']) throw damaged(path, 'no ppt/presentation.xml')
  return files
}

export function xmlPart(files: DeckFiles, name: string, path: string): Document {
  const bytes = files[name]
  if (!bytes) throw damaged(path, `${name} is missing`)
  const fail = (message: string) => {
    throw damaged(path, `${name}: ${String(message).split('\n')[0]}`)
  }
  // xmldom reports a mismatched or unclosed tag as a warning and mends the tree; a part that needs mending
  // is damaged, and a graft onto a guessed tree would write a deck PowerPoint repairs.
  const doc = new DOMParser({
    errorHandler: { warning: fail, error: fail, fatalError: fail },
  }).parseFromString(strFromU8(bytes), 'text/xml')
  if (!doc.documentElement) fail('no root element')
  return doc
}

export const putXml = (files: DeckFiles, name: string, doc: Document) => {
  files[name] = strToU8(new XMLSerializer().serializeToString(doc))
}

export const relsOf = (part: string) =>
  posix.join(posix.dirname(part), '_rels', `${posix.basename(part)}.rels`)
const resolveTarget = (part: string, target: string) =>
  target.startsWith('/') ? target.slice(1) : posix.normalize(posix.join(posix.dirname(part), target))

export interface Relation {
  id: string
  type: string
  /** The part it points to, resolved from the package root; '' for an external target. */
  target: string
  el: Element
}

export function relationsOf(files: DeckFiles, part: string, path: string): Relation[] {
  const name = relsOf(part)
  if (!files[name]) return []
  return Array.from(xmlPart(files, name, path).getElementsByTagName('Relationship')).map((el) => ({
    id: el.getAttribute('Id') ?? '',
    type: el.getAttribute('Type') ?? '',
    target:
      el.getAttribute('TargetMode') === 'External'
        ? ''
        : resolveTarget(part, el.getAttribute('Target') ?? ''),
    el,
  }))
}

/** The slide parts in presentation order. */
export function slideParts(files: DeckFiles, path: string): string[] {
  const presentation = xmlPart(files, 'ppt/presentation.xml', path)
  const rels = new Map(relationsOf(files, 'ppt/presentation.xml', path).map((r) => [r.id, r.target]))
  return Array.from(presentation.getElementsByTagName('p:sldId')).map((s) => {
    const target = rels.get(s.getAttribute('r:id') ?? '')
    if (!target || !files[target]) throw damaged(path, 'a slide in the list is missing')
    return target
  })
}
