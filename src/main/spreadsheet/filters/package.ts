import { sheetPrefix } from '../cells/address'
import { escapeXml, type Parts, partText, workbookPart, workbookSheets } from '../ooxml/packageParts'
import { insertElements } from '../ooxml/sheetXml'
import { joinSheet, splitSheet } from '../ooxml/splitSheet'
import { childElements, localName } from '../ooxml/xmlScan'

/** A sheet's autofilter as the save writes it: set since the last save (`xml`) or as read (`original`). */
export interface SheetFilter {
  /** The sheet's name in the saved workbook. */
  sheet: string
  /** The whole `<autoFilter>` element set by set_filter since the last save. */
  xml?: string
  /** The sheet's part in the package it was read from (its criteria are kept when the range is). */
  originalPart?: string
}

function autoFilterIn(tail: string, from: number): { start: number; end: number; xml: string } | undefined {
  const element = childElements(tail, from).find((e) => localName(e.name) === 'autoFilter')
  return element && { start: element.start, end: element.end, xml: tail.slice(element.start, element.end) }
}

const refOf = (xml: string) => /\bref="([^"]*)"/.exec(xml)?.[1]

/**
 * exceljs writes an autofilter as its range only (`<autoFilter ref=.../>`): the criteria set by
 * set_filter are written here, and a sheet read with criteria keeps them while its filter keeps its range.
 */
export function applyFilters(out: Parts, original: Parts, filters: SheetFilter[]): void {
  const parts = new Map(workbookSheets(out).map((s) => [s.name, s.part]))
  for (const filter of filters) {
    const part = parts.get(filter.sheet)
    const bytes = part ? out[part] : undefined
    if (!part || !bytes) continue
    const split = splitSheet(bytes)
    const current = autoFilterIn(split.tail, split.from)
    let wanted = filter.xml
    if (!wanted && filter.originalPart && current) {
      const before = original[filter.originalPart]
      const read = before ? splitSheet(before) : undefined
      const kept = read && autoFilterIn(read.tail, read.from)
      if (kept && kept.xml !== current.xml && refOf(kept.xml) === refOf(current.xml)) wanted = kept.xml
    }
    if (!wanted || wanted === current?.xml) continue
    const tail = current
      ? split.tail.slice(0, current.start) + wanted + split.tail.slice(current.end)
      : insertElements(split.tail, [{ name: 'autoFilter', xml: wanted }])
    out[part] = joinSheet({ ...split, tail })
  }
  nameFilterRanges(out)
}

const FILTER_DATABASE =
  /<definedName\b[^>]*\bname="_xlnm\._FilterDatabase"[^>]*>[^<]*<\/definedName>|<definedName\b[^>]*\bname="_xlnm\._FilterDatabase"[^>]*\/>/g

/**
 * Excel names each sheet's filter range `_xlnm._FilterDatabase` (hidden, local to the sheet), and
 * LibreOffice reads an autofilter only through that name: one per sheet with an autofilter, none else.
 */
function nameFilterRanges(out: Parts): void {
  const wbPart = workbookPart(out)
  const xml = wbPart ? partText(out, wbPart) : undefined
  if (!wbPart || !xml) return
  const names: string[] = []
  workbookSheets(out).forEach((sheet, index) => {
    const bytes = sheet.kind === 'worksheet' ? out[sheet.part] : undefined
    if (!bytes) return
    const split = splitSheet(bytes)
    const ref = refOf(autoFilterIn(split.tail, split.from)?.xml ?? '')
    if (!ref) return
    const absolute = ref.replace(/\$/g, '').replace(/([A-Z]+)(\d+)/g, '$$$1$$$2')
    names.push(
      `<definedName name="_xlnm._FilterDatabase" localSheetId="${index}" hidden="1">${escapeXml(sheetPrefix(sheet.name))}${absolute}</definedName>`,
    )
  })
  let next = xml.replace(FILTER_DATABASE, '')
  if (names.length > 0) {
    if (/<definedNames>/.test(next)) next = next.replace('<definedNames>', `<definedNames>${names.join('')}`)
    else {
      const after = /<\/externalReferences>|<\/sheets>/.exec(next)
      if (!after) return
      const at = after.index + after[0].length
      next = `${next.slice(0, at)}<definedNames>${names.join('')}</definedNames>${next.slice(at)}`
    }
  }
  next = next.replace(/<definedNames>\s*<\/definedNames>|<definedNames\/>/, '')
  if (next !== xml) out[wbPart] = new TextEncoder().encode(next)
}

function columnsOf(ref: string): number | undefined {
  const m = /^\$?([A-Z]{1,3})\$?\d+:\$?([A-Z]{1,3})\$?\d+$/.exec(ref)
  if (!m) return undefined
  const n = (s: string) => [...s].reduce((acc, ch) => acc * 26 + ch.charCodeAt(0) - 64, 0)
  return n(m[2]!) - n(m[1]!) + 1
}

/** Autofilters whose criteria do not fit their range: a column past it, a column twice, an empty one. */
export function filterProblems(parts: Parts): string[] {
  const problems: string[] = []
  for (const sheet of workbookSheets(parts)) {
    if (sheet.kind !== 'worksheet') continue
    const bytes = parts[sheet.part]
    if (!bytes) continue
    const split = splitSheet(bytes)
    const filter = autoFilterIn(split.tail, split.from)
    if (!filter?.xml.includes('filterColumn')) continue
    const width = columnsOf(refOf(filter.xml) ?? '')
    if (width === undefined) {
      problems.push(`${sheet.part}: autoFilter ref "${refOf(filter.xml)}" is not a range`)
      continue
    }
    const seen = new Set<number>()
    for (const m of filter.xml.matchAll(
      /<filterColumn\b[^>]*\bcolId="(\d+)"[^>]*>([\s\S]*?)<\/filterColumn>/g,
    )) {
      const col = Number(m[1])
      if (col >= width || seen.has(col))
        problems.push(`${sheet.part}: autoFilter column ${col} is outside its range or repeated`)
      seen.add(col)
      const rules = (
        m[2]!.match(/<(filters|customFilters|top10|dynamicFilter|colorFilter|iconFilter)\b/g) ?? []
      ).length
      if (rules !== 1) problems.push(`${sheet.part}: autoFilter column ${col} holds ${rules} rules`)
    }
  }
  return problems
}
