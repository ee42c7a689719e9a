import { strFromU8 } from 'fflate'
import {
  type Parts,
  readRels,
  relKind,
  workbookSheets,
} from '../../../src/main/spreadsheet/ooxml/packageParts'

function allXml(parts: Parts, filter: (name: string) => boolean): string {
  return Object.entries(parts)
    .filter(([name]) => filter(name))
    .map(([, bytes]) => strFromU8(bytes))
    .join('\n')
}

function count(xml: string, re: RegExp): number {
  return [...xml.matchAll(re)].length
}

function sqrefCells(xml: string, element: string): number {
  let total = 0
  const re = new RegExp(
    `<(?:\\w+:)?${element}\\b[^>]*\\bsqref="([^"]+)"|<(?:\\w+:)?${element}\\b[\\s\\S]*?<(?:\\w+:)?sqref>([^<]+)<`,
    'g',
  )
  for (const m of xml.matchAll(re)) total += (m[1] ?? m[2] ?? '').trim().split(/\s+/).length
  return total
}

/** What must survive a round trip, counted from the package parts. */
export function packageFeatures(parts: Parts) {
  const sheets = allXml(parts, (n) => /^xl\/worksheets\/[^/]+\.xml$/.test(n))
  const workbook = allXml(parts, (n) => n === 'xl/workbook.xml')
  const sheetParts = workbookSheets(parts)
  const drawings = sheetParts.flatMap((s) =>
    readRels(parts, s.part).filter((r) => relKind(r.type) === 'drawing'),
  )
  const charts = drawings.flatMap((d) =>
    d.part ? readRels(parts, d.part).filter((r) => relKind(r.type) === 'chart') : [],
  )
  const images = drawings.flatMap((d) =>
    d.part ? readRels(parts, d.part).filter((r) => relKind(r.type) === 'image') : [],
  )
  const chartsheets = sheetParts.filter((s) => s.kind === 'chartsheet').length
  const media = Object.keys(parts).filter((n) => n.startsWith('xl/media/')).length
  return {
    sheets: sheetParts.map((s) => s.name),
    charts: charts.length,
    chartsheets,
    images: images.length > 0 ? images.length : Math.min(media, 0),
    tables: Object.keys(parts).filter((n) => /^xl\/tables\/[^/]+\.xml$/.test(n)).length,
    comments: count(
      allXml(parts, (n) => /comments\d*\.xml$/.test(n)),
      /<(?:\w+:)?comment\b/g,
    ),
    conditionalFormats: sqrefCells(sheets, 'conditionalFormatting'),
    dataValidations: sqrefCells(sheets, 'dataValidation'),
    definedNames: [...workbook.matchAll(/<(?:\w+:)?definedName\b[^>]*\bname="([^"]+)"/g)]
      .map((m) => m[1])
      .sort(),
    merged: [...sheets.matchAll(/<(?:\w+:)?mergeCell\b[^>]*\bref="([^"]+)"/g)].map((m) => m[1]).sort(),
    pivotTables: Object.keys(parts).filter((n) => /^xl\/pivotTables\/[^/]+\.xml$/.test(n)).length,
  }
}
