import { strFromU8 } from 'fflate'
import {
  declareContentType,
  freePartName,
  nextRelId,
  type Parts,
  partText,
  readRels,
  relativeTarget,
  relKind,
  setPartText,
  workbookPart,
  workbookSheets,
  writeRels,
} from '../ooxml/packageParts'
import type { PendingPivot } from './model'

export type { PendingPivot } from './model'

import { BUILTIN_FORMATS, cacheDefinitionXml, cacheRecordsBytes, pivotTableXml } from './xml'

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
const TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml'

/** Custom number formats declared in styles.xml: format code -> id. */
export function styleFormats(parts: Parts): Map<string, number> {
  const styles = Object.keys(parts).find((p) => /^xl\/styles\.xml$/i.test(p))
  const xml = styles ? (partText(parts, styles) ?? '') : ''
  const out = new Map<string, number>()
  for (const m of xml.matchAll(/<(?:\w+:)?numFmt\b[^>]*>/g)) {
    const id = /\bnumFmtId="(\d+)"/.exec(m[0])?.[1]
    const code = /\bformatCode="([^"]*)"/.exec(m[0])?.[1]
    if (id && code !== undefined) out.set(code.replace(/&quot;/g, '"').replace(/&amp;/g, '&'), Number(id))
  }
  return out
}

export function numFmtIdIn(parts: Parts): (format: string | undefined) => number | undefined {
  const custom = styleFormats(parts)
  return (format) => (format === undefined ? undefined : (BUILTIN_FORMATS[format] ?? custom.get(format)))
}

/** Cache ids the workbook's `<pivotCaches>` already uses. */
export function usedCacheIds(parts: Parts): number[] {
  const wb = workbookPart(parts)
  const xml = wb ? (partText(parts, wb) ?? '') : ''
  return [...xml.matchAll(/<(?:\w+:)?pivotCache\b[^>]*\bcacheId="(\d+)"/g)].map((m) => Number(m[1]))
}

/** Adds `<pivotCache>` to the workbook part, inside its `<pivotCaches>` or in a new one in schema order. */
function registerCache(out: Parts, wb: string, cacheId: number, relId: string): void {
  let xml = partText(out, wb) ?? ''
  const element = `<pivotCache cacheId="${cacheId}" r:id="${relId}"/>`
  const existing = /<\/((?:\w+:)?)pivotCaches>/.exec(xml)
  if (existing) {
    const prefix = existing[1] ?? ''
    const el = prefix ? element.replace('<pivotCache', `<${prefix}pivotCache`) : element
    xml = xml.slice(0, existing.index) + el + xml.slice(existing.index)
  } else {
    // After calcPr / oleSize / customWorkbookViews, before smartTagPr and the rest.
    const after = [
      /<\/(?:\w+:)?customWorkbookViews>/,
      /<(?:\w+:)?oleSize\b[^>]*\/>/,
      /<\/(?:\w+:)?calcPr>|<(?:\w+:)?calcPr\b[^>]*\/>/,
      /<\/(?:\w+:)?definedNames>/,
      /<\/(?:\w+:)?sheets>/,
    ]
      .map((re) => re.exec(xml))
      .find((m) => m !== null)
    if (!after) throw new Error('the workbook part has no <sheets>')
    const at = after.index + after[0].length
    xml = `${xml.slice(0, at)}<pivotCaches>${element}</pivotCaches>${xml.slice(at)}`
  }
  setPartText(out, wb, xml)
}

/** Writes the parts of pivot tables made since the last save into `out` (after the carry-over). */
export function addPivotsToPackage(out: Parts, pivots: readonly PendingPivot[]): string[] {
  if (pivots.length === 0) return []
  const wb = workbookPart(out)
  if (!wb) throw new Error('the package has no workbook part')
  const sheets = workbookSheets(out)
  const numFmtId = numFmtIdIn(out)
  const added: string[] = []
  for (const pivot of pivots) {
    const sheetPart = sheets.find((s) => s.name === pivot.sheet)?.part
    if (!sheetPart) throw new Error(`pivot table sheet "${pivot.sheet}" is not in the package`)
    const definition = freePartName(out, 'xl/pivotCache/pivotCacheDefinition1.xml')
    setPartText(out, definition, '')
    const records = freePartName(out, 'xl/pivotCache/pivotCacheRecords1.xml')
    out[records] = cacheRecordsBytes(pivot.source, pivot.result)
    declareContentType(out, records, `${TYPE}.pivotCacheRecords+xml`)
    writeRels(out, definition, [
      {
        id: 'rId1',
        type: `${REL}/pivotCacheRecords`,
        target: relativeTarget(definition, records),
        external: false,
      },
    ])
    setPartText(out, definition, cacheDefinitionXml(pivot.source, pivot.result, 'rId1'))
    declareContentType(out, definition, `${TYPE}.pivotCacheDefinition+xml`)
    const wbRels = readRels(out, wb)
    const cacheRel = nextRelId(wbRels)
    wbRels.push({
      id: cacheRel,
      type: `${REL}/pivotCacheDefinition`,
      target: relativeTarget(wb, definition),
      external: false,
    })
    writeRels(out, wb, wbRels)
    registerCache(out, wb, pivot.cacheId, cacheRel)
    const table = freePartName(out, 'xl/pivotTables/pivotTable1.xml')
    setPartText(
      out,
      table,
      pivotTableXml(pivot.source, pivot.result, {
        cacheId: pivot.cacheId,
        location: pivot.location,
        numFmtId,
      }),
    )
    declareContentType(out, table, `${TYPE}.pivotTable+xml`)
    writeRels(out, table, [
      {
        id: 'rId1',
        type: `${REL}/pivotCacheDefinition`,
        target: relativeTarget(table, definition),
        external: false,
      },
    ])
    const sheetRels = readRels(out, sheetPart)
    sheetRels.push({
      id: nextRelId(sheetRels),
      type: `${REL}/pivotTable`,
      target: relativeTarget(sheetPart, table),
      external: false,
    })
    writeRels(out, sheetPart, sheetRels)
    added.push(`${pivot.sheet}: pivot table ${pivot.result.spec.name}`)
  }
  return added
}

/** `<r>` elements (unprefixed records, as Excel and Bureau write them) in a records part. */
function countRecords(bytes: Uint8Array): number {
  let n = 0
  for (let i = 0; i + 2 < bytes.length; i++)
    if (bytes[i] === 60 && bytes[i + 1] === 114 && (bytes[i + 2] === 62 || bytes[i + 2] === 32)) n++
  return n
}

/**
 * Pivot problems a spreadsheet application would repair: a table whose cache is not registered in the
 * workbook or has no cache part, field counts that differ from the cache's, records that miscount.
 */
export function pivotProblems(parts: Parts): string[] {
  const problems: string[] = []
  const ids = new Set(usedCacheIds(parts))
  for (const sheet of workbookSheets(parts)) {
    for (const rel of readRels(parts, sheet.part)) {
      if (relKind(rel.type) !== 'pivotTable' || !rel.part) continue
      const xml = partText(parts, rel.part) ?? ''
      const cacheId = /<(?:\w+:)?pivotTableDefinition\b[^>]*\bcacheId="(\d+)"/.exec(xml)?.[1]
      if (cacheId === undefined || !ids.has(Number(cacheId))) {
        problems.push(`${rel.part} names cache ${cacheId ?? '(none)'} the workbook does not list`)
        continue
      }
      const cachePart = readRels(parts, rel.part).find(
        (r) => relKind(r.type) === 'pivotCacheDefinition',
      )?.part
      const cache = cachePart ? partText(parts, cachePart) : undefined
      if (!cachePart || cache === undefined) {
        problems.push(`${rel.part} has no pivot cache part`)
        continue
      }
      const fields = Number(/<(?:\w+:)?cacheFields\b[^>]*\bcount="(\d+)"/.exec(cache)?.[1] ?? -1)
      // `pivotFields` is optional: a table without it has no fields of its own (its cache then has none).
      const pivotFields = Number(
        /<(?:\w+:)?pivotFields\b[^>]*\bcount="(\d+)"/.exec(xml)?.[1] ??
          (/<(?:\w+:)?pivotFields\b/.test(xml) ? -1 : 0),
      )
      if (fields !== pivotFields) problems.push(`${rel.part} has ${pivotFields} fields, its cache ${fields}`)
      const recordsPart = readRels(parts, cachePart).find(
        (r) => relKind(r.type) === 'pivotCacheRecords',
      )?.part
      const records = recordsPart ? parts[recordsPart] : undefined
      const recordCount = /\brecordCount="(\d+)"/.exec(cache)?.[1]
      if (records && recordCount !== undefined) {
        const head = strFromU8(records.subarray(0, 1024))
        const count = /<(?:\w+:)?pivotCacheRecords\b[^>]*\bcount="(\d+)"/.exec(head)?.[1]
        const rows = countRecords(records)
        if (count !== undefined && Number(count) !== Number(recordCount))
          problems.push(`${recordsPart} says ${count} records, its cache ${recordCount}`)
        else if (rows > 0 && rows !== Number(recordCount))
          problems.push(`${recordsPart} holds ${rows} records, its cache says ${recordCount}`)
      }
    }
  }
  return problems
}
