import { type Area, areaName, parseArea, sheetPrefix } from '../cells/address'
import { attributes, decodeXml, type Parts, partText, readRels, relKind } from '../ooxml/packageParts'
import { SUMMARY_OF } from './xml'

/** A pivot table as its parts describe it. */
export interface SavedPivot {
  name: string
  tablePart: string
  cachePart: string
  recordsPart?: string
  cacheId: number
  location: Area
  /** Page filter rows above the table (their count; the blank row after them is not counted). */
  pageCount: number
  /** `Data!A1:D50`, or the table / defined name the cache reads. */
  source: string
  sourceSheet?: string
  sourceRef?: string
  fields: string[]
  rows: string[]
  columns: string[]
  values: { field: string; summary: string; name: string; numFmtId?: number }[]
  /** Fields with hidden items: the labels still shown. */
  filters: { field: string; include?: string[] }[]
}

function elements(xml: string, name: string): string[] {
  return [
    ...xml.matchAll(new RegExp(`<(?:\\w+:)?${name}\\b[^>]*?(?:/>|>[\\s\\S]*?</(?:\\w+:)?${name}>)`, 'g')),
  ].map((m) => m[0])
}

function openTag(xml: string): Record<string, string> {
  return attributes(xml.slice(0, xml.indexOf('>') + 1))
}

function sharedLabels(cacheField: string): string[] {
  const shared = /<(?:\w+:)?sharedItems\b[^>]*>([\s\S]*?)<\/(?:\w+:)?sharedItems>/.exec(cacheField)?.[1] ?? ''
  return [...shared.matchAll(/<(?:\w+:)?([msnbde])\b([^>]*?)\/?>/g)].map((m) => {
    const v = /\bv="([^"]*)"/.exec(m[2] ?? '')?.[1]
    if (m[1] === 'm') return '(blank)'
    if (m[1] === 'b') return v === '1' ? 'TRUE' : 'FALSE'
    if (m[1] === 'd') return (v ?? '').replace(/T00:00:00$/, '')
    return decodeXml(v ?? '')
  })
}

/** Pivot tables anchored on the sheet part `sheetPart`. */
export function pivotsInSheet(parts: Parts, sheetPart: string): SavedPivot[] {
  const out: SavedPivot[] = []
  for (const rel of readRels(parts, sheetPart)) {
    if (relKind(rel.type) !== 'pivotTable' || !rel.part) continue
    const xml = partText(parts, rel.part)
    const cachePart = readRels(parts, rel.part).find((r) => relKind(r.type) === 'pivotCacheDefinition')?.part
    const cache = cachePart ? partText(parts, cachePart) : undefined
    if (!xml || !cache || !cachePart) continue
    const root = openTag(xml.slice(xml.search(/<(?:\w+:)?pivotTableDefinition\b/)))
    const loc = openTag(elements(xml, 'location')[0] ?? '<location/>')
    let location: Area
    try {
      location = parseArea(loc.ref ?? '')
    } catch {
      continue
    }
    const cacheFields = elements(cache, 'cacheField')
    const fields = cacheFields.map((f) => openTag(f).name ?? '')
    const src = openTag(elements(cache, 'worksheetSource')[0] ?? '<worksheetSource/>')
    const source =
      src.name ?? (src.ref ? `${src.sheet ? sheetPrefix(src.sheet) : ''}${src.ref}` : '(external)')
    const fieldList = (tag: string) => {
      const block = elements(xml, tag)[0] ?? ''
      return [...block.matchAll(/<(?:\w+:)?field\b[^>]*\bx="(-?\d+)"/g)]
        .map((m) => Number(m[1]))
        .filter((x) => x >= 0)
        .map((x) => fields[x] ?? `#${x}`)
    }
    const values = elements(xml, 'dataField').map((d) => {
      const a = openTag(d)
      const fld = Number(a.fld ?? 0)
      return {
        field: fields[fld] ?? `#${fld}`,
        summary: SUMMARY_OF[a.subtotal ?? 'sum'] ?? a.subtotal ?? 'sum',
        name: a.name ?? '',
        ...(a.numFmtId ? { numFmtId: Number(a.numFmtId) } : {}),
      }
    })
    const pageItems = new Map<number, number | undefined>()
    for (const p of elements(xml, 'pageField')) {
      const a = openTag(p)
      pageItems.set(Number(a.fld), a.item === undefined ? undefined : Number(a.item))
    }
    const filters: SavedPivot['filters'] = []
    elements(xml, 'pivotField').forEach((pf, f) => {
      const labels = sharedLabels(cacheFields[f] ?? '')
      const items = [...pf.matchAll(/<(?:\w+:)?item\b([^>]*)\/?>/g)].map((m) => attributes(m[1] ?? ''))
      const shown = items.filter((i) => i.x !== undefined && i.h !== '1' && i.t === undefined)
      const hidden = items.some((i) => i.h === '1')
      const page = pageItems.get(f)
      if (page !== undefined && labels[page] !== undefined)
        filters.push({ field: fields[f] ?? `#${f}`, include: [labels[page]!] })
      else if (hidden)
        filters.push({ field: fields[f] ?? `#${f}`, include: shown.map((i) => labels[Number(i.x)] ?? '') })
      else if (pageItems.has(f)) filters.push({ field: fields[f] ?? `#${f}` })
    })
    const recordsPart = readRels(parts, cachePart).find((r) => relKind(r.type) === 'pivotCacheRecords')?.part
    out.push({
      name: root.name ?? '',
      tablePart: rel.part,
      cachePart,
      ...(recordsPart ? { recordsPart } : {}),
      cacheId: Number(root.cacheId ?? 0),
      location,
      pageCount: Number(loc.rowPageCount ?? 0),
      source,
      ...(src.sheet ? { sourceSheet: src.sheet } : {}),
      ...(src.ref ? { sourceRef: src.ref } : {}),
      fields,
      rows: fieldList('rowFields'),
      columns: fieldList('colFields'),
      values,
      filters,
    })
  }
  return out
}

export interface PivotSummary {
  name: string
  range: string
  source: string
  rows: string[]
  columns: string[]
  values: string[]
}

export function describePivot(p: {
  name: string
  location: Area
  source: string
  rows: string[]
  columns: string[]
  values: { name: string }[]
}): PivotSummary {
  return {
    name: p.name,
    range: areaName(p.location),
    source: p.source,
    rows: p.rows,
    columns: p.columns,
    values: p.values.map((v) => v.name),
  }
}
