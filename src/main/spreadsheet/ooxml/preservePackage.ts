import { addChartsToSheet, type PendingChart } from '../charts/chartPackage'
import type { RefRewrite } from '../charts/chartRefs'
import { type SheetMove, shiftDrawingAnchors } from './anchorShift'
import {
  attributes,
  decodeXml,
  escapeXml,
  nextRelId,
  type Parts,
  partText,
  type Relationship,
  readRels,
  relativeTarget,
  relKind,
  setPartText,
  workbookPart,
  workbookSheets,
  writeRels,
} from './packageParts'
import { PartCopier } from './partCopier'
import { addNamespaces, elementXml, insertElements, replaceElement, rootNamespaces } from './sheetXml'
import { joinSheet, rootText, splitSheet } from './splitSheet'
import { afterSheetData, childElements, localName } from './xmlScan'

/** Worksheet elements exceljs drops or may drop; carried from the original when the output lacks them. */
const CARRIED_ELEMENTS = new Set([
  'sheetProtection',
  'dataValidations',
  'printOptions',
  'headerFooter',
  'rowBreaks',
  'colBreaks',
  'drawing',
  'legacyDrawing',
  'legacyDrawingHF',
  'picture',
  'oleObjects',
  'controls',
  'AlternateContent',
])

/** Relationships no element points to; carried when the output has none of that kind. */
const CARRIED_RELS = new Set(['pivotTable', 'comments'])

const RELS_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'

export interface PreserveInput {
  original: Parts
  /** Current sheet name -> its part in `original` (sheets added since are absent). */
  originalSheetParts: Map<string, string>
  charts: PendingChart[]
  /** Sheet renames and row/column moves since the original was read, for carried references. */
  rewrites: readonly RefRewrite[]
  /** Current sheet name -> rows/columns inserted or deleted since the original was read. */
  moves: Map<string, SheetMove[]>
}

export interface PreserveReport {
  /** What was carried over, e.g. `Sales: drawing`, `workbook: definedName Print_Titles`. */
  carried: string[]
}

function relPrefixes(xml: string): string[] {
  return [...rootNamespaces(xml)].filter(([, uri]) => uri === RELS_NS).map(([p]) => p)
}

/** Copies what `xml` references through relationship ids into the output and rewrites the ids. */
function remapRelIds(
  xml: string,
  prefixes: string[],
  originalRels: Relationship[],
  outPart: string,
  outRels: Relationship[],
  copier: PartCopier,
): string {
  let out = xml
  for (const prefix of prefixes) {
    out = out.replace(
      new RegExp(`(\\s${prefix}:[\\w]+=")([^"]+)(")`, 'g'),
      (whole, head: string, id: string, tail: string) => {
        const rel = originalRels.find((r) => r.id === id)
        if (!rel) return whole
        const newId = copier.link(outPart, outRels, rel)
        return newId ? `${head}${newId}${tail}` : whole
      },
    )
    if (prefix !== 'r') out = out.replace(new RegExp(`(\\s)${prefix}:`, 'g'), '$1r:')
  }
  return out
}

function mergeExtLst(originalExt: string, outputExt: string | undefined): string | undefined {
  const uris = (xml: string) =>
    new Set([...xml.matchAll(/<(?:\w+:)?ext\b[^>]*\buri="([^"]+)"/g)].map((m) => m[1]))
  if (!outputExt) return originalExt
  const have = uris(outputExt)
  const inner = originalExt.replace(/^<[^>]+>/, '').replace(/<\/[^>]+>$/, '')
  const missing = childElements(`<x>${inner}</x>`, 3)
    .map((e) => `<x>${inner}</x>`.slice(e.start, e.end))
    .filter((ext) => {
      const uri = /\buri="([^"]+)"/.exec(ext)?.[1]
      return uri !== undefined && !have.has(uri)
    })
  if (missing.length === 0) return undefined
  return outputExt.replace(/<\/(\w+:)?extLst>$/, (end) => `${missing.join('')}${end}`)
}

function preserveSheet(
  name: string,
  origPart: string,
  outPart: string,
  input: PreserveInput,
  out: Parts,
  copier: PartCopier,
  report: PreserveReport,
): void {
  const origBytes = input.original[origPart]
  const outBytes = out[outPart]
  if (!origBytes || !outBytes) return
  const origSplit = splitSheet(origBytes)
  const orig = { xml: origSplit.tail, elements: childElements(origSplit.tail, origSplit.from) }
  const origRels = readRels(input.original, origPart)
  const needsWork =
    orig.elements.some((e) => CARRIED_ELEMENTS.has(localName(e.name)) || localName(e.name) === 'extLst') ||
    origRels.some((r) => CARRIED_RELS.has(relKind(r.type)))
  if (!needsWork) return
  const outSplit = splitSheet(outBytes)
  let tail = outSplit.tail
  let head = outSplit.head
  const outNames = new Set(childElements(tail, outSplit.from).map((e) => localName(e.name)))
  const outRels = readRels(out, outPart)
  const relCount = outRels.length
  const namespaces = rootNamespaces(rootText(origSplit))
  const prefixes = relPrefixes(rootText(origSplit))
  const additions: { name: string; xml: string }[] = []
  for (const element of orig.elements) {
    const local = localName(element.name)
    if (local === 'extLst') continue
    if (!CARRIED_ELEMENTS.has(local) || outNames.has(local)) continue
    additions.push({
      name: element.name,
      xml: remapRelIds(elementXml(orig, element), prefixes, origRels, outPart, outRels, copier),
    })
    report.carried.push(`${name}: ${local}`)
  }
  for (const rel of origRels) {
    const kind = relKind(rel.type)
    if (!CARRIED_RELS.has(kind) || outRels.some((r) => relKind(r.type) === kind)) continue
    copier.link(outPart, outRels, rel)
    report.carried.push(`${name}: ${kind}`)
  }
  const carriedXml = additions.map((a) => a.xml)
  tail = insertElements(tail, additions)
  const origExt = orig.elements.find((e) => localName(e.name) === 'extLst')
  if (origExt) {
    const current = { xml: tail, elements: childElements(tail, outSplit.head ? 0 : afterSheetData(tail)) }
    const outExt = current.elements.find((e) => localName(e.name) === 'extLst')
    const carriedExt = remapRelIds(elementXml(orig, origExt), prefixes, origRels, outPart, outRels, copier)
    const merged = mergeExtLst(carriedExt, outExt ? elementXml(current, outExt) : undefined)
    if (merged) {
      carriedXml.push(merged)
      tail = outExt
        ? replaceElement(tail, outExt, merged)
        : insertElements(tail, [{ name: 'extLst', xml: merged }])
      report.carried.push(`${name}: extLst`)
    }
  }
  if (carriedXml.length === 0 && outRels.length === relCount) return
  if (head) head = addNamespaces(head, carriedXml.join(''), namespaces)
  else tail = addNamespaces(tail, carriedXml.join(''), namespaces)
  out[outPart] = joinSheet({ head, middle: outSplit.middle, tail, from: 0 })
  writeRels(out, outPart, outRels)
}

function sheetIndexByName(parts: Parts): string[] {
  return workbookSheets(parts).map((s) => s.name)
}

function definedNameElements(xml: string): { xml: string; name: string; local?: string }[] {
  return [...xml.matchAll(/<(?:\w+:)?definedName\b[^>]*(?:\/>|>[\s\S]*?<\/(?:\w+:)?definedName>)/g)].map(
    (m) => {
      const a = attributes(m[0].slice(0, m[0].indexOf('>') + 1))
      return { xml: m[0], name: a.name ?? '', local: a.localSheetId }
    },
  )
}

/**
 * exceljs drops some defined names and loses the sheet scope of others, so the original names are
 * written back (sheet scopes mapped to the current sheet order) plus the names that are new.
 */
function preserveDefinedNames(input: PreserveInput, out: Parts, wbOut: string, report: PreserveReport): void {
  const wbOrig = workbookPart(input.original)
  const origXml = wbOrig ? partText(input.original, wbOrig) : undefined
  let outXml = partText(out, wbOut)
  if (!origXml || !outXml) return
  const origSheets = sheetIndexByName(input.original)
  const currentByOriginal = new Map<string, string>()
  const originalSheets = workbookSheets(input.original)
  for (const [current, part] of input.originalSheetParts) {
    const origName = originalSheets.find((s) => s.part === part)?.name
    if (origName) currentByOriginal.set(origName, current)
  }
  for (const s of originalSheets) if (s.kind !== 'worksheet') currentByOriginal.set(s.name, s.name)
  const outSheets = sheetIndexByName(out)
  const kept: string[] = []
  const origKeys = new Set<string>()
  const origNames = new Set<string>()
  for (const d of definedNameElements(origXml)) {
    let local = d.local
    if (local !== undefined) {
      const sheetName = origSheets[Number(local)]
      const current = sheetName === undefined ? undefined : currentByOriginal.get(sheetName)
      const index = current === undefined ? -1 : outSheets.indexOf(current)
      if (index < 0) continue
      local = String(index)
    }
    origKeys.add(`${d.name.toLowerCase()}|${local ?? ''}`)
    origNames.add(d.name.toLowerCase())
    let xml = d.xml.replace(/^<\w+:/, '<').replace(/<\/\w+:definedName>$/, '</definedName>')
    xml = xml.replace(/>([^<]*)<\/definedName>$/, (_, body: string) => {
      const formula = input.rewrites.reduce((f, rewrite) => rewrite(f), decodeXml(body))
      return `>${escapeXml(formula)}</definedName>`
    })
    if (local !== undefined) xml = xml.replace(/localSheetId="\d+"/, `localSheetId="${local}"`)
    kept.push(xml)
  }
  const outNames = definedNameElements(outXml)
  const added = outNames.filter((d) =>
    d.name.startsWith('_xlnm.') && d.local !== undefined
      ? !origKeys.has(`${d.name.toLowerCase()}|${d.local}`)
      : !origNames.has(d.name.toLowerCase()),
  )
  const outKeys = new Set(outNames.map((d) => `${d.name.toLowerCase()}|${d.local ?? ''}`))
  for (const key of origKeys)
    if (!outKeys.has(key)) report.carried.push(`workbook: definedName ${key.split('|')[0]}`)
  if (kept.length === 0) return
  const block = `<definedNames>${[...kept, ...added.map((d) => d.xml)].join('')}</definedNames>`
  const existing = /<definedNames\b[^>]*\/>|<definedNames\b[\s\S]*?<\/definedNames>/.exec(outXml)
  outXml = existing
    ? outXml.slice(0, existing.index) + block + outXml.slice(existing.index + existing[0].length)
    : outXml.replace(/<\/sheets>/, `</sheets>${block}`)
  setPartText(out, wbOut, outXml)
}

/** Shifts sheet indices (scoped names, active tab) when a sheet is inserted at `index`. */
function shiftSheetIndices(xml: string, index: number): string {
  return xml
    .replace(
      /(<(?:\w+:)?definedName\b[^>]*\blocalSheetId=")(\d+)(")/g,
      (_, a: string, n: string, b: string) => `${a}${Number(n) >= index ? Number(n) + 1 : n}${b}`,
    )
    .replace(
      /(\bactiveTab=")(\d+)(")/g,
      (_, a: string, n: string, b: string) => `${a}${Number(n) >= index ? Number(n) + 1 : n}${b}`,
    )
}

/** Chart sheets (exceljs drops them) go back to their original place in the tab order. */
function preserveChartsheets(
  input: PreserveInput,
  out: Parts,
  wbOut: string,
  copier: PartCopier,
  report: PreserveReport,
): void {
  const originalSheets = workbookSheets(input.original)
  if (!originalSheets.some((s) => s.kind === 'chartsheet')) return
  let outXml = partText(out, wbOut) ?? ''
  const rels = readRels(out, wbOut)
  let sheetId = Math.max(0, ...[...outXml.matchAll(/\bsheetId="(\d+)"/g)].map((m) => Number(m[1]))) + 1
  originalSheets.forEach((sheet, originalIndex) => {
    if (sheet.kind !== 'chartsheet') return
    const current = workbookSheets(out)
    if (current.some((s) => s.name.toLowerCase() === sheet.name.toLowerCase())) return
    const copy = copier.copy(sheet.part)
    if (!copy) return
    const id = nextRelId(rels)
    rels.push({
      id,
      type: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/chartsheet',
      target: relativeTarget(wbOut, copy),
      external: false,
    })
    const state = attributes(sheet.xml).state
    const element = `<sheet name="${escapeXml(sheet.name)}" sheetId="${sheetId++}"${state ? ` state="${state}"` : ''} r:id="${id}"/>`
    const index = Math.min(originalIndex, current.length)
    const before = current[index]
    outXml = shiftSheetIndices(outXml, index)
    outXml = before
      ? outXml.replace(before.xml, `${element}${before.xml}`)
      : outXml.replace(/<\/(\w+:)?sheets>/, (end) => `${element}${end}`)
    setPartText(out, wbOut, outXml)
    writeRels(out, wbOut, rels)
    report.carried.push(`workbook: chartsheet ${sheet.name}`)
  })
}

function preservePivotCaches(
  input: PreserveInput,
  out: Parts,
  wbOut: string,
  copier: PartCopier,
  report: PreserveReport,
): void {
  const wbOrig = workbookPart(input.original)
  if (!wbOrig) return
  const origXml = partText(input.original, wbOrig) ?? ''
  const caches = /<(?:\w+:)?pivotCaches>[\s\S]*?<\/(?:\w+:)?pivotCaches>/.exec(origXml)
  let outXml = partText(out, wbOut) ?? ''
  if (!caches || /<pivotCaches>/.test(outXml)) return
  const rels = readRels(out, wbOut)
  const origRels = readRels(input.original, wbOrig)
  const element = caches[0].replace(
    /(\s[\w]+:id=")([^"]+)(")/g,
    (whole, head: string, id: string, tail: string) => {
      const rel = origRels.find((r) => r.id === id)
      const newId = rel ? copier.link(wbOut, rels, rel) : undefined
      return newId ? `${head}${newId}${tail}` : whole
    },
  )
  const anchor =
    /<\/(?:\w+:)?calcPr>|<(?:\w+:)?calcPr\b[^>]*\/>/.exec(outXml) ??
    /<\/(?:\w+:)?definedNames>|<\/(?:\w+:)?sheets>/.exec(outXml)
  if (!anchor) return
  const at = anchor.index + anchor[0].length
  outXml = outXml.slice(0, at) + element + outXml.slice(at)
  setPartText(out, wbOut, outXml)
  writeRels(out, wbOut, rels)
  report.carried.push('workbook: pivotCaches')
}

/**
 * Carries through everything exceljs drops on a read-then-write round trip (drawings with charts and
 * images, comments, chart sheets, pivot tables, extLst validations and formats, defined names, page
 * settings) and adds the charts created since the last save. Mutates `out`.
 */
export function preservePackage(input: PreserveInput, out: Parts): PreserveReport {
  const report: PreserveReport = { carried: [] }
  const { rewrites } = input
  const copier = new PartCopier(input.original, out, rewrites)
  const outSheets = workbookSheets(out)
  for (const sheet of outSheets) {
    const origPart = input.originalSheetParts.get(sheet.name)
    if (origPart) preserveSheet(sheet.name, origPart, sheet.part, input, out, copier, report)
  }
  const wbOut = workbookPart(out)
  if (wbOut && Object.keys(input.original).length > 0) {
    preserveChartsheets(input, out, wbOut, copier, report)
    preserveDefinedNames(input, out, wbOut, report)
    preservePivotCaches(input, out, wbOut, copier, report)
  }
  for (const sheet of outSheets) {
    const moves = input.moves.get(sheet.name) ?? []
    const drawing = readRels(out, sheet.part).find((r) => relKind(r.type) === 'drawing')?.part
    if (moves.length > 0 && drawing && out[drawing]) {
      setPartText(out, drawing, shiftDrawingAnchors(partText(out, drawing) ?? '', moves))
    }
    const charts = input.charts.filter((c) => c.sheet === sheet.name)
    if (charts.length > 0) addChartsToSheet(out, sheet.part, charts, rewrites, moves)
  }
  return report
}
