import { posix } from 'node:path'
import { strToU8, unzipSync, zipSync } from 'fflate'
import {
  type DeckFiles,
  damaged,
  openDeck,
  putXml as put,
  relationsOf as relations,
  relsOf,
  slideParts,
  xmlPart as xml,
} from './deckXml'
import { type DeckLayout, deckLayouts, pickLayout, type SlideKind } from './layouts'
import type { SlideOutline } from './outline'
import { onLayout } from './templateSlide'

export { openDeck } from './deckXml'

const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships'
const SLIDE_REL = `${REL_NS}/slide`
const LAYOUT_REL = `${REL_NS}/slideLayout`
const NOTES_REL = `${REL_NS}/notesSlide`
const NOTES_MASTER_REL = `${REL_NS}/notesMaster`

type Files = DeckFiles

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

/** Each slide's layout name (the layout's `p:cSld` name, else its part name) read from the package. */
export function deckLayoutNames(bytes: Uint8Array, path: string): string[] {
  const files = openDeck(bytes, path)
  return slideParts(files, path).map((part) => {
    const layout = relations(files, part, path).find((r) => r.type === LAYOUT_REL)?.target
    if (!layout || !files[layout]) return ''
    return (
      xml(files, layout, path).getElementsByTagName('p:cSld')[0]?.getAttribute('name') ||
      posix.basename(layout)
    )
  })
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

/** A new slide: the Markdown outline it was written from and the kind of layout it takes. */
export interface Placement {
  outline: SlideOutline
  kind: SlideKind
}

export interface Grafted {
  bytes: Uint8Array
  warnings: string[]
  /** Per new slide, the name of the deck's layout it is on. */
  layouts: string[]
}

/**
 * The generated deck's slides added at the end of an existing deck: each slide part copied with its
 * pictures and, when the deck has a notes master, its notes. With placements, each slide goes on the
 * deck's layout for its kind, its title and text in that layout's placeholders; without, on the layout
 * of the deck's first slide.
 */
export function appendDeck(
  target: Uint8Array,
  generated: Uint8Array,
  path: string,
  placements?: Placement[],
): Grafted {
  return graft(openDeck(target, path), generated, path, placements)
}

/**
 * A new deck on a template: the template's masters, layouts, theme and settings, its own slides left out,
 * and the generated slides on its layouts.
 */
export function templateDeck(
  template: Uint8Array,
  generated: Uint8Array,
  templatePath: string,
  placements: Placement[],
): Grafted {
  const files = openDeck(template, templatePath)
  withoutSlides(files, templatePath)
  return graft(files, generated, templatePath, placements)
}

const PRESENTATION_TYPE = 'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml'

/** Removes every slide (with its notes and the pictures only it used) and the lists that name slides. */
function withoutSlides(files: Files, path: string): void {
  const presentation = xml(files, 'ppt/presentation.xml', path)
  const presRelsName = relsOf('ppt/presentation.xml')
  const presRels = xml(files, presRelsName, path)
  const types = xml(files, '[Content_Types].xml', path)
  const drop = (part: string) => {
    delete files[part]
    delete files[relsOf(part)]
    for (const override of Array.from(types.getElementsByTagName('Override')))
      if (override.getAttribute('PartName') === `/${part}`) types.documentElement.removeChild(override)
  }
  const slideRels = new Set<string>()
  for (const rel of relations(files, 'ppt/presentation.xml', path)) {
    if (rel.type !== SLIDE_REL) continue
    slideRels.add(rel.id)
    if (rel.target && files[rel.target]) {
      for (const inner of relations(files, rel.target, path)) if (inner.type === NOTES_REL) drop(inner.target)
      drop(rel.target)
    }
  }
  for (const rel of Array.from(presRels.getElementsByTagName('Relationship')))
    if (slideRels.has(rel.getAttribute('Id') ?? '')) presRels.documentElement.removeChild(rel)
  for (const id of Array.from(presentation.getElementsByTagName('p:sldId'))) id.parentNode?.removeChild(id)
  // Sections and custom shows list slides by id; without the slides they would point at nothing.
  for (const list of Array.from(presentation.getElementsByTagName('p14:sectionLst'))) {
    const ext = list.parentNode
    ext?.parentNode?.removeChild(ext)
  }
  for (const shows of Array.from(presentation.getElementsByTagName('p:custShowLst')))
    shows.parentNode?.removeChild(shows)
  for (const override of Array.from(types.getElementsByTagName('Override')))
    if (override.getAttribute('PartName') === '/ppt/presentation.xml')
      override.setAttribute('ContentType', PRESENTATION_TYPE)
  put(files, 'ppt/presentation.xml', presentation)
  put(files, presRelsName, presRels)
  put(files, '[Content_Types].xml', types)
  const used = new Set<string>()
  for (const name of Object.keys(files))
    if (name.endsWith('.rels')) {
      const part = name.replace(/_rels\/([^/]+)\.rels$/, '$1')
      for (const rel of relations(files, part, path)) used.add(rel.target)
    }
  for (const name of Object.keys(files))
    if (name.startsWith('ppt/media/') && !used.has(name)) delete files[name]
}

function graft(files: Files, generated: Uint8Array, path: string, placements?: Placement[]): Grafted {
  const source = unzipSync(generated)
  const warnings: string[] = []
  const presentation = xml(files, 'ppt/presentation.xml', path)
  const presRelsName = relsOf('ppt/presentation.xml')
  const presRels = xml(files, presRelsName, path)
  const types = xml(files, '[Content_Types].xml', path)
  const existing = relations(files, 'ppt/presentation.xml', path)
  const firstSlide = slideParts(files, path)[0]
  const layouts = placements ? deckLayouts(files, path) : []
  const fallback =
    (firstSlide
      ? relations(files, firstSlide, path).find((r) => r.type === LAYOUT_REL)?.target
      : undefined) ??
    layouts[0]?.part ??
    Object.keys(files).find((name) => /^ppt\/slideLayouts\/slideLayout\d+\.xml$/.test(name))
  if (!fallback) throw damaged(path, 'no slide layout')
  const layoutName = (part: string) =>
    xml(files, part, path).getElementsByTagName('p:cSld')[0]?.getAttribute('name') || posix.basename(part)
  const usedLayouts: string[] = []
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
  for (const [index, part] of slideParts(source, 'generated deck').entries()) {
    const slideName = nextName(files, 'ppt/slides', 'slide', 'xml')
    const placement = placements?.[index]
    const chosen: DeckLayout | undefined = placement ? pickLayout(layouts, placement.kind) : undefined
    const layout = chosen?.part ?? fallback
    if (placement && chosen) {
      const slide = xml(source, part, 'generated deck')
      if (onLayout(slide, chosen, placement.outline, placement.kind)) put(files, slideName, slide)
      else files[slideName] = source[part] as Uint8Array
    } else files[slideName] = source[part] as Uint8Array
    usedLayouts.push(chosen?.name ?? layoutName(layout))
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
  return { bytes: zipSync(files, { level: 6 }), warnings: [...new Set(warnings)], layouts: usedLayouts }
}
