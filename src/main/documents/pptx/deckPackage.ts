import { posix } from 'node:path'
import { DOMParser, XMLSerializer } from '@xmldom/xmldom'
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate'
import { AppError } from '../../../shared/errors'

const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships'
const SLIDE_REL = `${REL_NS}/slide`
const LAYOUT_REL = `${REL_NS}/slideLayout`
const NOTES_REL = `${REL_NS}/notesSlide`
const NOTES_MASTER_REL = `${REL_NS}/notesMaster`

type Files = Record<string, Uint8Array>

function damaged(path: string, reason: string): AppError {
  return new AppError(
    'VALIDATION_FAILED',
    `${path} is not a readable PowerPoint deck (${reason}); nothing was changed.`,
  )
}

export function openDeck(bytes: Uint8Array, path: string): Files {
  if (bytes[0] !== 0x50 || bytes[1] !== 0x4b) throw damaged(path, 'not a .pptx package')
  let files: Files
  try {
    files = unzipSync(bytes)
  } catch (error) {
    throw damaged(path, error instanceof Error ? error.message : String(error))
  }
  if (!files['ppt/presentation.xml']) throw damaged(path, 'no ppt/presentation.xml')
  return files
}

function xml(files: Files, name: string, path: string): Document {
  const bytes = files[name]
  if (!bytes) throw damaged(path, `${name} is missing`)
  const fail = (message: string) => {
    throw damaged(path, `${name}: ${String(message).split('\n')[0]}`)
  }
  return new DOMParser({
    errorHandler: { warning: () => {}, error: fail, fatalError: fail },
  }).parseFromString(strFromU8(bytes), 'text/xml')
}

const put = (files: Files, name: string, doc: Document) => {
  files[name] = strToU8(new XMLSerializer().serializeToString(doc))
}

const relsOf = (part: string) => posix.join(posix.dirname(part), '_rels', `${posix.basename(part)}.rels`)
const resolveTarget = (part: string, target: string) =>
  target.startsWith('/') ? target.slice(1) : posix.normalize(posix.join(posix.dirname(part), target))

function relations(
  files: Files,
  part: string,
  path: string,
): Array<{ id: string; type: string; target: string; el: Element }> {
  const name = relsOf(part)
  if (!files[name]) return []
  return Array.from(xml(files, name, path).getElementsByTagName('Relationship')).map((el) => ({
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
export function slideParts(files: Files, path: string): string[] {
  const presentation = xml(files, 'ppt/presentation.xml', path)
  const rels = new Map(relations(files, 'ppt/presentation.xml', path).map((r) => [r.id, r.target]))
  return Array.from(presentation.getElementsByTagName('p:sldId')).map((s) => {
    const target = rels.get(s.getAttribute('r:id') ?? '')
    if (!target || !files[target]) throw damaged(path, 'a slide in the list is missing')
    return target
  })
}

/** Each slide's title (the title placeholder, or the shape named "Title") read from the package. */
export function deckTitles(bytes: Uint8Array, path: string): string[] {
  const files = openDeck(bytes, path)
  return slideParts(files, path).map((part) => {
    const doc = xml(files, part, path)
    for (const shape of Array.from(doc.getElementsByTagName('p:sp'))) {
      const name = shape.getElementsByTagName('p:cNvPr')[0]?.getAttribute('name') ?? ''
      const ph = shape.getElementsByTagName('p:ph')[0]?.getAttribute('type') ?? ''
      if (name === 'Title' || ph === 'title' || ph === 'ctrTitle')
        return Array.from(shape.getElementsByTagName('a:t'))
          .map((t) => t.textContent ?? '')
          .join('')
          .trim()
    }
    return ''
  })
}

/** The generated deck with the template's theme (colours, fonts) in place of the default one. */
export function withTheme(generated: Uint8Array, template: Uint8Array, templatePath: string): Uint8Array {
  const source = openDeck(template, templatePath)
  const master = relations(source, 'ppt/presentation.xml', templatePath).find((r) =>
    r.type.endsWith('/slideMaster'),
  )
  const theme = master
    ? relations(source, master.target, templatePath).find((r) => r.type.endsWith('/theme'))
    : undefined
  const themeXml = theme ? source[theme.target] : undefined
  if (!themeXml) throw damaged(templatePath, 'no theme')
  xml(source, theme?.target ?? '', templatePath)
  const files = unzipSync(generated)
  files['ppt/theme/theme1.xml'] = new Uint8Array(themeXml)
  return zipSync(files, { level: 6 })
}

/** Slide size in EMU from presentation.xml. */
export function slideSize(files: Files, path: string): { cx: number; cy: number } {
  const size = xml(files, 'ppt/presentation.xml', path).getElementsByTagName('p:sldSz')[0]
  return { cx: Number(size?.getAttribute('cx') ?? 12192000), cy: Number(size?.getAttribute('cy') ?? 6858000) }
}

function nextName(files: Files, dir: string, stem: string, ext: string): string {
  let n = 1
  while (files[`${dir}/${stem}${n}.${ext}`]) n += 1
  return `${dir}/${stem}${n}.${ext}`
}

function addOverride(types: Document, part: string, contentType: string): void {
  const override = types.createElementNS(
    'http://schemas.openxmlformats.org/package/2006/content-types',
    'Override',
  )
  override.setAttribute('PartName', `/${part}`)
  override.setAttribute('ContentType', contentType)
  types.documentElement.appendChild(override)
}

function ensureDefault(types: Document, ext: string, contentType: string): void {
  const known = Array.from(types.getElementsByTagName('Default')).some(
    (d) => d.getAttribute('Extension')?.toLowerCase() === ext.toLowerCase(),
  )
  if (known) return
  const entry = types.createElementNS(
    'http://schemas.openxmlformats.org/package/2006/content-types',
    'Default',
  )
  entry.setAttribute('Extension', ext)
  entry.setAttribute('ContentType', contentType)
  types.documentElement.appendChild(entry)
}

function relsDoc(relationships: Array<{ id: string; type: string; target: string }>): Uint8Array {
  const body = relationships
    .map((r) => `<Relationship Id="${r.id}" Type="${r.type}" Target="${r.target}"/>`)
    .join('')
  return strToU8(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="${PKG_REL_NS}">${body}</Relationships>`,
  )
}

/**
 * The generated deck's slides added at the end of an existing deck: each slide part copied with its
 * pictures, on the existing deck's first layout; its notes kept when the deck has a notes master.
 */
export function appendDeck(
  target: Uint8Array,
  generated: Uint8Array,
  path: string,
): { bytes: Uint8Array; warnings: string[] } {
  const files = openDeck(target, path)
  const source = unzipSync(generated)
  const warnings: string[] = []
  const presentation = xml(files, 'ppt/presentation.xml', path)
  const presRelsName = relsOf('ppt/presentation.xml')
  const presRels = xml(files, presRelsName, path)
  const types = xml(files, '[Content_Types].xml', path)
  const existing = relations(files, 'ppt/presentation.xml', path)
  const firstSlide = slideParts(files, path)[0]
  const layout =
    (firstSlide
      ? relations(files, firstSlide, path).find((r) => r.type === LAYOUT_REL)?.target
      : undefined) ?? Object.keys(files).find((name) => /^ppt\/slideLayouts\/slideLayout\d+\.xml$/.test(name))
  if (!layout) throw damaged(path, 'no slide layout')
  const notesMaster = existing.find((r) => r.type === NOTES_MASTER_REL)?.target
  let list = presentation.getElementsByTagName('p:sldIdLst')[0]
  if (!list) {
    list = presentation.createElementNS(presentation.documentElement.namespaceURI, 'p:sldIdLst')
    const after =
      presentation.getElementsByTagName('p:notesMasterIdLst')[0] ??
      presentation.getElementsByTagName('p:sldMasterIdLst')[0]
    presentation.documentElement.insertBefore(list, after?.nextSibling ?? null)
  }
  let nextSlideId =
    Math.max(
      255,
      ...Array.from(presentation.getElementsByTagName('p:sldId')).map((s) => Number(s.getAttribute('id'))),
    ) + 1
  let relN = existing.length + 1
  const usedIds = new Set(existing.map((r) => r.id))
  for (const part of slideParts(source, 'generated deck')) {
    const slideName = nextName(files, 'ppt/slides', 'slide', 'xml')
    files[slideName] = source[part] as Uint8Array
    const rels: Array<{ id: string; type: string; target: string }> = []
    for (const rel of relations(source, part, 'generated deck')) {
      if (rel.type === LAYOUT_REL)
        rels.push({ id: rel.id, type: rel.type, target: posix.relative('ppt/slides', layout) })
      else if (rel.type === NOTES_REL) {
        if (!notesMaster) {
          warnings.push('The deck has no notes master, so the new slides’ speaker notes were left out.')
          continue
        }
        const notesName = nextName(files, 'ppt/notesSlides', 'notesSlide', 'xml')
        files[notesName] = source[rel.target] as Uint8Array
        files[relsOf(notesName)] = relsDoc([
          { id: 'rId1', type: NOTES_MASTER_REL, target: posix.relative('ppt/notesSlides', notesMaster) },
          { id: 'rId2', type: SLIDE_REL, target: posix.relative('ppt/notesSlides', slideName) },
        ])
        addOverride(
          types,
          notesName,
          'application/vnd.openxmlformats-officedocument.presentationml.notesSlide+xml',
        )
        rels.push({ id: rel.id, type: rel.type, target: posix.relative('ppt/slides', notesName) })
      } else if (rel.target && source[rel.target]) {
        const ext = posix.extname(rel.target).slice(1) || 'bin'
        const media = nextName(files, 'ppt/media', 'bureau-image', ext)
        files[media] = source[rel.target] as Uint8Array
        ensureDefault(
          types,
          ext,
          ext === 'jpg' || ext === 'jpeg' ? 'image/jpeg' : `image/${ext === 'svg' ? 'svg+xml' : ext}`,
        )
        rels.push({ id: rel.id, type: rel.type, target: posix.relative('ppt/slides', media) })
      }
    }
    files[relsOf(slideName)] = relsDoc(rels)
    addOverride(types, slideName, 'application/vnd.openxmlformats-officedocument.presentationml.slide+xml')
    while (usedIds.has(`rId${relN}`)) relN += 1
    const relId = `rId${relN}`
    usedIds.add(relId)
    const rel = presRels.createElementNS(PKG_REL_NS, 'Relationship')
    rel.setAttribute('Id', relId)
    rel.setAttribute('Type', SLIDE_REL)
    rel.setAttribute('Target', posix.relative('ppt', slideName))
    presRels.documentElement.appendChild(rel)
    const entry = presentation.createElementNS(presentation.documentElement.namespaceURI, 'p:sldId')
    entry.setAttribute('id', String(nextSlideId))
    entry.setAttributeNS(REL_NS, 'r:id', relId)
    nextSlideId += 1
    list.appendChild(entry)
  }
  put(files, 'ppt/presentation.xml', presentation)
  put(files, presRelsName, presRels)
  put(files, '[Content_Types].xml', types)
  return { bytes: zipSync(files, { level: 6 }), warnings: [...new Set(warnings)] }
}
