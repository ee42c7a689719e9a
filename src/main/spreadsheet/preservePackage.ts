import { addChartsToSheet, type PendingChart } from './chartPackage'
import {
  attributes,
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
import {
  addNamespaces,
  elementXml,
  insertElements,
  replaceElement,
  rootNamespaces,
  sheetTail,
} from './sheetXml'
import { childElements, localName } from './xmlScan'

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
  const origXml = partText(input.original, origPart)
  let outXml = partText(out, outPart)
  if (!origXml || !outXml) return
  const orig = sheetTail(origXml)
  const output = sheetTail(outXml)
  const outNames = new Set(output.elements.map((e) => localName(e.name)))
  const origRels = readRels(input.original, origPart)
  const outRels = readRels(out, outPart)
  const prefixes = relPrefixes(origXml)
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
  const namespaces = rootNamespaces(origXml)
  outXml = addNamespaces(outXml, additions.map((a) => a.xml).join(''), namespaces)
  outXml = insertElements(outXml, additions)
  const origExt = orig.elements.find((e) => localName(e.name) === 'extLst')
  if (origExt) {
    const current = sheetTail(outXml)
    const outExt = current.elements.find((e) => localName(e.name) === 'extLst')
    const carriedExt = remapRelIds(elementXml(orig, origExt), prefixes, origRels, outPart, outRels, copier)
    const merged = mergeExtLst(carriedExt, outExt ? elementXml(current, outExt) : undefined)
    if (merged) {
      outXml = addNamespaces(outXml, merged, namespaces)
      const again = sheetTail(outXml)
      const target = again.elements.find((e) => localName(e.name) === 'extLst')
      outXml = target
        ? replaceElement(outXml, target, merged)
        : insertElements(outXml, [{ name: 'extLst', xml: merged }])
      report.carried.push(`${name}: extLst`)
    }
  }
  if (additions.length > 0 || origExt || outRels.length !== readRels(out, outPart).length) {
    setPartText(out, outPart, outXml)
    writeRels(out, outPart, outRels)
  }
}

function sheetIndexByName(parts: Parts): string[] {
  return workbookSheets(parts).map((s) => s.name)
}

/** Defined names exceljs dropped (print titles, constants, names with odd ranges). */
function preserveDefinedNames(input: PreserveInput, out: Parts, wbOut: string, report: PreserveReport): void {
  const wbOrig = workbookPart(input.original)
  const origXml = wbOrig ? partText(input.original, wbOrig) : undefined
  let outXml = partText(out, wbOut)
  if (!origXml || !outXml) return
  const origSheets = sheetIndexByName(input.original)
  const renamed = new Map<string, string>()
  for (const [current, part] of input.originalSheetParts) {
    const origName = workbookSheets(input.original).find((s) => s.part === part)?.name
    if (origName) renamed.set(origName, current)
  }
  const outSheets = sheetIndexByName(out)
  const key = (name: string, local: string | undefined) => `${name.toLowerCase()}|${local ?? ''}`
  const have = new Set(
    [...outXml.matchAll(/<(?:\w+:)?definedName\b[^>]*>/g)].map((m) => {
      const a = attributes(m[0])
      return key(a.name ?? '', a.localSheetId)
    }),
  )
  const missing: string[] = []
  for (const m of origXml.matchAll(
    /<(?:\w+:)?definedName\b[^>]*(?:\/>|>[\s\S]*?<\/(?:\w+:)?definedName>)/g,
  )) {
    const a = attributes(m[0].slice(0, m[0].indexOf('>') + 1))
    let local = a.localSheetId
    if (local !== undefined) {
      const sheetName = origSheets[Number(local)]
      const current = sheetName === undefined ? undefined : renamed.get(sheetName)
      const index = current === undefined ? -1 : outSheets.indexOf(current)
      if (index < 0) continue
      local = String(index)
    }
    if (have.has(key(a.name ?? '', local))) continue
    let xml = m[0].replace(/^<\w+:/, '<').replace(/<\/\w+:definedName>$/, '</definedName>')
    if (local !== undefined) xml = xml.replace(/localSheetId="\d+"/, `localSheetId="${local}"`)
    missing.push(xml)
    report.carried.push(`workbook: definedName ${a.name}`)
  }
  if (missing.length === 0) return
  if (/<definedNames\b[^>]*\/>/.test(outXml))
    outXml = outXml.replace(/<definedNames\b[^>]*\/>/, `<definedNames>${missing.join('')}</definedNames>`)
  else if (outXml.includes('</definedNames>'))
    outXml = outXml.replace('</definedNames>', `${missing.join('')}</definedNames>`)
  else outXml = outXml.replace(/<\/sheets>/, `</sheets><definedNames>${missing.join('')}</definedNames>`)
  setPartText(out, wbOut, outXml)
}

/** Chart sheets (exceljs drops them) are added back after the worksheets. */
function preserveChartsheets(
  input: PreserveInput,
  out: Parts,
  wbOut: string,
  copier: PartCopier,
  report: PreserveReport,
): void {
  const chartsheets = workbookSheets(input.original).filter((s) => s.kind === 'chartsheet')
  if (chartsheets.length === 0) return
  let outXml = partText(out, wbOut) ?? ''
  const rels = readRels(out, wbOut)
  const used = new Set(workbookSheets(out).map((s) => s.name.toLowerCase()))
  let sheetId = Math.max(0, ...[...outXml.matchAll(/\bsheetId="(\d+)"/g)].map((m) => Number(m[1]))) + 1
  for (const sheet of chartsheets) {
    if (used.has(sheet.name.toLowerCase())) continue
    const copy = copier.copy(sheet.part)
    if (!copy) continue
    const id = nextRelId(rels)
    rels.push({
      id,
      type: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/chartsheet',
      target: relativeTarget(wbOut, copy),
      external: false,
    })
    const state = attributes(sheet.xml).state
    const element = `<sheet name="${sheet.name.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')}" sheetId="${sheetId++}"${state ? ` state="${state}"` : ''} r:id="${id}"/>`
    outXml = outXml.replace('</sheets>', `${element}</sheets>`)
    report.carried.push(`workbook: chartsheet ${sheet.name}`)
  }
  setPartText(out, wbOut, outXml)
  writeRels(out, wbOut, rels)
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
  const copier = new PartCopier(input.original, out)
  const outSheets = workbookSheets(out)
  for (const sheet of outSheets) {
    const origPart = input.originalSheetParts.get(sheet.name)
    if (origPart) preserveSheet(sheet.name, origPart, sheet.part, input, out, copier, report)
  }
  const wbOut = workbookPart(out)
  if (wbOut && Object.keys(input.original).length > 0) {
    preserveDefinedNames(input, out, wbOut, report)
    preserveChartsheets(input, out, wbOut, copier, report)
    preservePivotCaches(input, out, wbOut, copier, report)
  }
  for (const sheet of outSheets) {
    const charts = input.charts.filter((c) => c.sheet === sheet.name)
    if (charts.length > 0) addChartsToSheet(out, sheet.part, charts)
  }
  return report
}
