import path from 'node:path/posix'
import { strFromU8, strToU8, unzipSync } from 'fflate'

/** An OPC package (the zip inside an .xlsx): part name without leading slash -> bytes. */
export type Parts = Record<string, Uint8Array>

export function readPackage(bytes: Uint8Array): Parts {
  const parts = unzipSync(bytes)
  for (const name of Object.keys(parts)) if (name.endsWith('/')) delete parts[name]
  return parts
}

/** Parts larger than this are inflated from the zip each time they are read instead of kept. */
const KEEP_INFLATED = 256 * 1024
/** Read again and again by the carry-over (names, relationships, content types): always kept inflated. */
const STRUCTURAL = /^(\[Content_Types\]\.xml|xl\/workbook\.xml|(.*\/)?_rels\/[^/]*\.rels)$/

function inflatePart(zip: Uint8Array, name: string): Uint8Array {
  const part = unzipSync(zip, { filter: (file) => file.name === name })[name]
  if (!part) throw new Error(`${name} is missing from the package`)
  return part
}

/**
 * `parts` (the contents of `zip`) with every part above 256 KB (a big sheet's XML, an image; not the
 * workbook, relationship and content-type parts the carry-over reads many times) left
 * compressed in `zip` and inflated when read: the package kept for carrying parts over costs its zip
 * size, not its inflated size. Writing a part replaces it with the bytes given.
 */
export function compressedParts(zip: Uint8Array, parts: Parts): Parts {
  const out: Parts = {}
  for (const [name, bytes] of Object.entries(parts)) {
    if (bytes.byteLength <= KEEP_INFLATED || STRUCTURAL.test(name)) {
      out[name] = bytes
      continue
    }
    Object.defineProperty(out, name, {
      enumerable: true,
      configurable: true,
      get: () => inflatePart(zip, name),
      set: (value: Uint8Array) => {
        Object.defineProperty(out, name, { value, enumerable: true, configurable: true, writable: true })
      },
    })
  }
  return out
}

/** Zips a package with node's zlib (via archiver): several times faster than a JavaScript deflate. */
export async function writePackage(parts: Parts): Promise<Uint8Array> {
  const { default: archiver } = await import('archiver')
  const zip = archiver('zip', { zlib: { level: 3 } })
  const chunks: Buffer[] = []
  zip.on('data', (chunk: Buffer) => chunks.push(chunk))
  const ended = new Promise<void>((resolve, reject) => {
    zip.on('end', () => resolve())
    zip.on('error', reject)
  })
  // [Content_Types].xml first, as Office writes it.
  const names = Object.keys(parts).sort(
    (a, b) => Number(b === '[Content_Types].xml') - Number(a === '[Content_Types].xml'),
  )
  for (const name of names) {
    const data = parts[name]!
    zip.append(Buffer.from(data.buffer, data.byteOffset, data.byteLength), { name })
  }
  await zip.finalize()
  await ended
  return new Uint8Array(Buffer.concat(chunks))
}

export function partText(parts: Parts, name: string): string | undefined {
  const bytes = parts[name]
  return bytes ? strFromU8(bytes) : undefined
}

export function setPartText(parts: Parts, name: string, xml: string): void {
  parts[name] = strToU8(xml)
}

export function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const m of tag.matchAll(/([\w:.-]+)\s*=\s*("([^"]*)"|'([^']*)')/g))
    out[m[1]!] = decodeXml(m[3] ?? m[4] ?? '')
  return out
}

export function decodeXml(text: string): string {
  return text.replace(/&(lt|gt|quot|apos|amp|#\d+|#x[0-9a-f]+);/gi, (_, e: string) => {
    switch (e.toLowerCase()) {
      case 'lt':
        return '<'
      case 'gt':
        return '>'
      case 'quot':
        return '"'
      case 'apos':
        return "'"
      case 'amp':
        return '&'
      default:
        return String.fromCodePoint(
          e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1)),
        )
    }
  })
}

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

export interface Relationship {
  id: string
  type: string
  target: string
  external: boolean
  /** Part name the target resolves to (internal targets only). */
  part?: string
}

export function relsPathFor(part: string): string {
  return path.join(path.dirname(part), '_rels', `${path.basename(part)}.rels`)
}

export function resolveTarget(fromPart: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1)
  return path.normalize(path.join(path.dirname(fromPart), target))
}

export function relativeTarget(fromPart: string, toPart: string): string {
  return path.relative(path.dirname(fromPart), toPart)
}

/** Relationship type without its namespace (`worksheet`, `drawing`, `chart`...). */
export function relKind(type: string): string {
  return type.slice(type.lastIndexOf('/') + 1)
}

export function readRels(parts: Parts, part: string): Relationship[] {
  const xml = partText(parts, part === '' ? '_rels/.rels' : relsPathFor(part))
  if (!xml) return []
  const rels: Relationship[] = []
  for (const m of xml.matchAll(/<(?:\w+:)?Relationship\b[^>]*>/g)) {
    const a = attributes(m[0])
    const external = a.TargetMode === 'External'
    const rel: Relationship = { id: a.Id ?? '', type: a.Type ?? '', target: a.Target ?? '', external }
    if (!external && rel.target) rel.part = resolveTarget(part === '' ? '' : part, rel.target)
    rels.push(rel)
  }
  return rels
}

export function writeRels(parts: Parts, part: string, rels: Relationship[]): void {
  const body = rels
    .map(
      (r) =>
        `<Relationship Id="${escapeXml(r.id)}" Type="${escapeXml(r.type)}" Target="${escapeXml(r.target)}"${r.external ? ' TargetMode="External"' : ''}/>`,
    )
    .join('')
  setPartText(
    parts,
    relsPathFor(part),
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${body}</Relationships>`,
  )
}

export function nextRelId(rels: Relationship[]): string {
  let n = rels.length + 1
  const ids = new Set(rels.map((r) => r.id))
  while (ids.has(`rId${n}`)) n++
  return `rId${n}`
}

export function workbookPart(parts: Parts): string | undefined {
  return readRels(parts, '').find((r) => relKind(r.type) === 'officeDocument')?.part
}

export interface SheetEntry {
  name: string
  rid: string
  part: string
  kind: string
  /** The `<sheet .../>` element as written. */
  xml: string
}

export function workbookSheets(parts: Parts): SheetEntry[] {
  const wbPart = workbookPart(parts)
  if (!wbPart) return []
  const xml = partText(parts, wbPart) ?? ''
  const rels = new Map(readRels(parts, wbPart).map((r) => [r.id, r]))
  const out: SheetEntry[] = []
  for (const m of xml.matchAll(/<(?:\w+:)?sheet\b[^>]*\/?>/g)) {
    const a = attributes(m[0])
    const rid = a['r:id'] ?? Object.entries(a).find(([k]) => k.endsWith(':id'))?.[1] ?? ''
    const rel = rels.get(rid)
    if (rel?.part) out.push({ name: a.name ?? '', rid, part: rel.part, kind: relKind(rel.type), xml: m[0] })
  }
  return out
}

/** Content type of a part as the package declares it. */
export function contentTypeOf(parts: Parts, part: string): string | undefined {
  const xml = partText(parts, '[Content_Types].xml') ?? ''
  for (const m of xml.matchAll(/<(?:\w+:)?Override\b[^>]*>/g)) {
    const a = attributes(m[0])
    if (a.PartName?.slice(1).toLowerCase() === part.toLowerCase()) return a.ContentType
  }
  const ext = path.extname(part).slice(1).toLowerCase()
  for (const m of xml.matchAll(/<(?:\w+:)?Default\b[^>]*>/g)) {
    const a = attributes(m[0])
    if (a.Extension?.toLowerCase() === ext) return a.ContentType
  }
  return undefined
}

export function declareContentType(parts: Parts, part: string, contentType: string): void {
  if (contentTypeOf(parts, part) === contentType) return
  const xml = partText(parts, '[Content_Types].xml') ?? ''
  const override = `<Override PartName="/${escapeXml(part)}" ContentType="${escapeXml(contentType)}"/>`
  setPartText(
    parts,
    '[Content_Types].xml',
    xml.replace(/<\/(\w+:)?Types>\s*$/, (end) => `${override}${end}`),
  )
}

/** A part name that does not exist yet, in the same folder (`chart3.xml` when 1 and 2 exist). */
export function freePartName(parts: Parts, wanted: string): string {
  if (!parts[wanted]) return wanted
  const dir = path.dirname(wanted)
  const ext = path.extname(wanted)
  const stem = path.basename(wanted, ext).replace(/\d+$/, '')
  for (let n = 1; ; n++) {
    const candidate = path.join(dir, `${stem}${n}${ext}`)
    if (!parts[candidate]) return candidate
  }
}
