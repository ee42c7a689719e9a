import { posix } from 'node:path'
import { AppError } from '../../../shared/errors'
import { type DocxPackage, REL, relsPathOf, setText, text } from './docxPackage'
import { readStyles } from './styles'
import { childrenOf } from './xmlScan'

const maxOf = (xml: string, pattern: RegExp) => {
  let max = 0
  for (const match of xml.matchAll(pattern)) max = Math.max(max, Number(match[1]))
  return max
}

const escapeAttr = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')

function insertAt(xml: string, at: number, added: string): string {
  return xml.slice(0, at) + added + xml.slice(at)
}

/** Adds `xmlns:p` declarations the copied markup needs and the target's root tag lacks. */
export function declareNamespaces(target: string, copied: string, source: string, part: string): string {
  const used = new Set<string>()
  for (const m of copied.matchAll(/<\/?([A-Za-z_][\w.-]*):/g)) used.add(m[1] ?? '')
  for (const m of copied.matchAll(/\s([A-Za-z_][\w.-]*):[\w.-]+="/g))
    if (m[1] !== 'xmlns') used.add(m[1] ?? '')
  const { rootTag } = childrenOf(target, [], part)
  const head = target.slice(rootTag.start, rootTag.end)
  let added = ''
  for (const prefix of used) {
    const uri = new RegExp(`xmlns:${prefix}="([^"]*)"`).exec(source)?.[1]
    if (!uri) continue
    const existing = new RegExp(`xmlns:${prefix}="([^"]*)"`).exec(head)?.[1]
    if (existing === undefined) added += ` xmlns:${prefix}="${uri}"`
    else if (existing !== uri)
      throw new AppError('UNSUPPORTED', `${part} uses the prefix ${prefix} for another namespace.`)
  }
  if (!added) return target
  const at = rootTag.end - (head.endsWith('/>') ? 2 : 1)
  return insertAt(target, at, added)
}

interface Parts {
  source: DocxPackage
  target: DocxPackage
  warnings: string[]
}

function relationships(pkg: DocxPackage, part: string) {
  const name = relsPathOf(part)
  const xml =
    text(pkg, name) ??
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"></Relationships>'
  return { name, xml, ...childrenOf(xml, ['Relationships'], name) }
}

function ensureContentDefault(pkg: DocxPackage, extension: string, type: string): void {
  const name = '[Content_Types].xml'
  const xml = text(pkg, name) ?? ''
  if (new RegExp(`Extension="${extension}"`, 'i').test(xml)) return
  const { close } = childrenOf(xml, ['Types'], name)
  setText(pkg, name, insertAt(xml, close, `<Default Extension="${extension}" ContentType="${type}"/>`))
}

function ensureOverride(pkg: DocxPackage, part: string, type: string): void {
  const name = '[Content_Types].xml'
  const xml = text(pkg, name) ?? ''
  if (xml.includes(`PartName="/${part}"`)) return
  const { close } = childrenOf(xml, ['Types'], name)
  setText(pkg, name, insertAt(xml, close, `<Override PartName="/${part}" ContentType="${type}"/>`))
}

const MEDIA_TYPES: Record<string, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  bmp: 'image/bmp',
}

/** Copies the pictures and links the fragment refers to and gives them fresh relationship ids. */
function importRelationships(fragment: string, parts: Parts): string {
  const { source, target } = parts
  const from = relationships(source, source.main)
  const to = relationships(target, target.main)
  const taken = new Set(to.children.map((c) => c.attributes.Id))
  const byId = new Map(from.children.map((c) => [c.attributes.Id ?? '', c.attributes]))
  const renamed = new Map<string, string>()
  let added = ''
  let n = 1
  const freshId = () => {
    while (taken.has(`rIdBureau${n}`)) n += 1
    taken.add(`rIdBureau${n}`)
    return `rIdBureau${n}`
  }
  for (const match of fragment.matchAll(/\br:(?:embed|id|link)="([^"]+)"/g)) {
    const old = match[1] ?? ''
    if (renamed.has(old)) continue
    const rel = byId.get(old)
    if (!rel?.Type || rel.Target === undefined) throw new AppError('INTERNAL', `No relationship ${old}.`)
    const id = freshId()
    renamed.set(old, id)
    let targetPath = rel.Target
    if (rel.Type === `${REL}/image`) {
      const bytes = source.files.get(posix.join(posix.dirname(source.main), rel.Target))
      if (!bytes) throw new AppError('INTERNAL', `Picture ${rel.Target} is missing.`)
      const extension = posix.extname(rel.Target).slice(1).toLowerCase()
      const dir = posix.join(posix.dirname(target.main), 'media')
      let k = 1
      while (target.files.has(posix.join(dir, `bureau-${k}.${extension}`))) k += 1
      target.files.set(posix.join(dir, `bureau-${k}.${extension}`), bytes)
      targetPath = `media/bureau-${k}.${extension}`
      ensureContentDefault(target, extension, MEDIA_TYPES[extension] ?? 'application/octet-stream')
    }
    const mode = rel.TargetMode ? ` TargetMode="${escapeAttr(rel.TargetMode)}"` : ''
    added += `<Relationship Id="${id}" Type="${escapeAttr(rel.Type)}" Target="${escapeAttr(targetPath)}"${mode}/>`
  }
  if (added) setText(target, to.name, insertAt(to.xml, to.close, added))
  return fragment.replace(
    /\b(r:(?:embed|id|link))="([^"]+)"/g,
    (_, attr: string, old: string) => `${attr}="${renamed.get(old) ?? old}"`,
  )
}

function partOfType(pkg: DocxPackage, type: string): string | undefined {
  const rels = relationships(pkg, pkg.main)
  const rel = rels.children.find((c) => c.attributes.Type === `${REL}/${type}`)
  return rel?.attributes.Target ? posix.join(posix.dirname(pkg.main), rel.attributes.Target) : undefined
}

function addPart(pkg: DocxPackage, type: string, name: string, contentType: string): void {
  const rels = relationships(pkg, pkg.main)
  const taken = new Set(rels.children.map((c) => c.attributes.Id))
  let n = 1
  while (taken.has(`rIdBureau${type}${n}`)) n += 1
  const rel = `<Relationship Id="rIdBureau${type}${n}" Type="${REL}/${type}" Target="${posix.relative(posix.dirname(pkg.main), name)}"/>`
  setText(pkg, rels.name, insertAt(rels.xml, rels.close, rel))
  ensureOverride(pkg, name, contentType)
}

const NUMBERING_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml'

/** Copies the list definitions the fragment uses into the target's numbering part, with fresh ids. */
function importNumbering(fragment: string, parts: Parts): string {
  const used = new Set([...fragment.matchAll(/<w:numId w:val="(\d+)"\/>/g)].map((m) => m[1] ?? ''))
  used.delete('0')
  if (used.size === 0) return fragment
  const { source, target } = parts
  const sourceName = partOfType(source, 'numbering') ?? ''
  const sourceXml = text(source, sourceName) ?? ''
  const sourceNums = childrenOf(sourceXml, ['w:numbering'], sourceName).children
  let targetName = partOfType(target, 'numbering')
  if (!targetName || !target.files.has(targetName)) {
    targetName = posix.join(posix.dirname(target.main), 'numbering.xml')
    const { rootTag } = childrenOf(sourceXml, [], sourceName)
    setText(target, targetName, `${sourceXml.slice(0, rootTag.end)}</w:numbering>`)
    addPart(target, 'numbering', targetName, NUMBERING_TYPE)
  }
  let targetXml = text(target, targetName) ?? ''
  let nextAbstract = maxOf(targetXml, /w:abstractNumId="(\d+)"/g) + 1
  let nextNum = maxOf(targetXml, /<w:num\b[^>]*w:numId="(\d+)"/g) + 1
  const numIds = new Map<string, number>()
  let abstracts = ''
  let nums = ''
  for (const num of sourceNums.filter((c) => c.name === 'w:num' && used.has(c.attributes['w:numId'] ?? ''))) {
    const slice = sourceXml.slice(num.start, num.end)
    const abstractId = /<w:abstractNumId w:val="(\d+)"/.exec(slice)?.[1]
    const abstract = sourceNums.find(
      (c) => c.name === 'w:abstractNum' && c.attributes['w:abstractNumId'] === abstractId,
    )
    if (!abstract) continue
    const newAbstract = nextAbstract++
    const newNum = nextNum++
    numIds.set(num.attributes['w:numId'] ?? '', newNum)
    abstracts += sourceXml
      .slice(abstract.start, abstract.end)
      .replace(/w:abstractNumId="\d+"/, `w:abstractNumId="${newAbstract}"`)
    nums += slice
      .replace(/w:numId="\d+"/, `w:numId="${newNum}"`)
      .replace(/<w:abstractNumId w:val="\d+"/, `<w:abstractNumId w:val="${newAbstract}"`)
  }
  targetXml = declareNamespaces(targetXml, abstracts + nums, sourceXml, targetName)
  const scan = childrenOf(targetXml, ['w:numbering'], targetName)
  const firstNum = scan.children.find((c) => c.name === 'w:num')?.start ?? scan.close
  targetXml = insertAt(insertAt(targetXml, scan.close, nums), firstNum, abstracts)
  setText(target, targetName, targetXml)
  return fragment.replace(/<w:numId w:val="(\d+)"\/>/g, (whole, id: string) =>
    numIds.has(id) ? `<w:numId w:val="${numIds.get(id)}"/>` : whole,
  )
}

/**
 * Styles the fragment names: kept when the target has them, mapped by name when it has them under
 * another id (a localised Word), else copied from the generated document.
 */
function importStyles(fragment: string, parts: Parts): string {
  const { source, target } = parts
  const sourceName = partOfType(source, 'styles') ?? ''
  const sourceXml = text(source, sourceName) ?? ''
  const sourceStyles = readStyles(sourceXml, sourceName)
  const targetName = partOfType(target, 'styles')
  const targetXml = targetName ? text(target, targetName) : undefined
  if (!targetName || targetXml === undefined) {
    parts.warnings.push('The document has no styles part; added content uses the default look.')
    return fragment
  }
  const targetStyles = readStyles(targetXml, targetName)
  const byName = new Map([...targetStyles.values()].map((s) => [`${s.type}:${s.name.toLowerCase()}`, s.id]))
  const mapped = new Map<string, string>()
  let copied = ''
  for (const match of fragment.matchAll(/<w:(?:pStyle|rStyle|tblStyle) w:val="([^"]+)"/g)) {
    const id = match[1] ?? ''
    if (mapped.has(id) || targetStyles.has(id)) continue
    const style = sourceStyles.get(id)
    const sameName = style ? byName.get(`${style.type}:${style.name.toLowerCase()}`) : undefined
    if (sameName) mapped.set(id, sameName)
    else if (style) {
      mapped.set(id, id)
      copied += sourceXml.slice(style.start, style.end)
    }
  }
  if (copied) {
    const declared = declareNamespaces(targetXml, copied, sourceXml, targetName)
    setText(
      target,
      targetName,
      insertAt(declared, childrenOf(declared, ['w:styles'], targetName).close, copied),
    )
  }
  return fragment.replace(
    /(<w:(?:pStyle|rStyle|tblStyle) w:val=")([^"]+)"/g,
    (_, head: string, id: string) => `${head}${mapped.get(id) ?? id}"`,
  )
}

/** Bookmark and drawing ids must stay unique in the document. */
function renumber(fragment: string, documentXml: string): string {
  const bookmarks = maxOf(documentXml, /<w:bookmark(?:Start|End)\b[^>]*\bw:id="(\d+)"/g)
  const drawings = maxOf(documentXml, /<wp:docPr\b[^>]*\bid="(\d+)"/g)
  return fragment
    .replace(
      /(<w:bookmark(?:Start|End)\b[^>]*\bw:id=")(\d+)"/g,
      (_, head: string, id: string) => `${head}${Number(id) + bookmarks}"`,
    )
    .replace(
      /(<wp:docPr\b[^>]*\bid=")(\d+)"/g,
      (_, head: string, id: string) => `${head}${Number(id) + drawings}"`,
    )
}

/**
 * Makes a fragment of the generated document's body valid inside the target document: its pictures,
 * links, list definitions and styles are carried over, every id renumbered. Mutates `target`.
 */
export function importFragment(fragment: string, parts: Parts, documentXml: string): string {
  if (/<w:(?:footnote|endnote)Reference\b/.test(fragment))
    throw new AppError(
      'VALIDATION_FAILED',
      'Footnotes cannot be added to an existing document; write the note into the text instead.',
    )
  let out = importRelationships(fragment, parts)
  out = importNumbering(out, parts)
  out = importStyles(out, parts)
  return renumber(out, documentXml)
}
