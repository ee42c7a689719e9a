import { afterSheetData, type ChildElement, childElements, localName } from './xmlScan'

/** CT_Worksheet child order (ECMA-376 Part 1, 18.3.1.99). */
const WORKSHEET_ORDER = [
  'sheetPr',
  'dimension',
  'sheetViews',
  'sheetFormatPr',
  'cols',
  'sheetData',
  'sheetCalcPr',
  'sheetProtection',
  'protectedRanges',
  'scenarios',
  'autoFilter',
  'sortState',
  'dataConsolidate',
  'customSheetViews',
  'mergeCells',
  'phoneticPr',
  'conditionalFormatting',
  'dataValidations',
  'hyperlinks',
  'printOptions',
  'pageMargins',
  'pageSetup',
  'headerFooter',
  'rowBreaks',
  'colBreaks',
  'customProperties',
  'cellWatches',
  'ignoredErrors',
  'smartTags',
  'drawing',
  'legacyDrawing',
  'legacyDrawingHF',
  'drawingHF',
  'picture',
  'oleObjects',
  'controls',
  'webPublishItems',
  'tableParts',
  'extLst',
]

/** Where `AlternateContent` wrappers usually sit (they hold oleObjects and controls). */
const ALTERNATE_CONTENT_RANK = WORKSHEET_ORDER.indexOf('oleObjects')

function rank(name: string): number {
  const local = localName(name)
  if (local === 'AlternateContent') return ALTERNATE_CONTENT_RANK
  const i = WORKSHEET_ORDER.indexOf(local)
  return i < 0 ? WORKSHEET_ORDER.length : i
}

export interface SheetTail {
  xml: string
  elements: ChildElement[]
}

export function sheetTail(xml: string): SheetTail {
  return { xml, elements: childElements(xml, afterSheetData(xml)) }
}

export function elementXml(tail: SheetTail, element: ChildElement): string {
  return tail.xml.slice(element.start, element.end)
}

/** Inserts elements (each `{name, xml}`) at their schema positions in a worksheet part. */
export function insertElements(xml: string, additions: { name: string; xml: string }[]): string {
  if (additions.length === 0) return xml
  const tail = sheetTail(xml)
  const rootEnd = xml.lastIndexOf('</')
  const inserts = additions.map((a) => {
    const r = rank(a.name)
    const before = tail.elements.find((e) => rank(e.name) > r)
    return { at: before ? before.start : rootEnd, xml: a.xml, r }
  })
  inserts.sort((a, b) => b.at - a.at || b.r - a.r)
  let out = xml
  for (const ins of inserts) out = out.slice(0, ins.at) + ins.xml + out.slice(ins.at)
  return out
}

export function replaceElement(xml: string, element: ChildElement, replacement: string): string {
  return xml.slice(0, element.start) + replacement + xml.slice(element.end)
}

/** Namespace declarations (`xmlns:x14="..."`) of the root element. */
export function rootNamespaces(xml: string): Map<string, string> {
  const root = /<(?!\?)(?!!)[\w:.-]+\b[^>]*>/.exec(xml)
  const map = new Map<string, string>()
  if (!root) return map
  for (const m of root[0].matchAll(/xmlns(?::([\w.-]+))?\s*=\s*"([^"]*)"/g)) map.set(m[1] ?? '', m[2]!)
  return map
}

/** Declares on the output root every prefix the carried XML uses that the output does not declare yet. */
export function addNamespaces(xml: string, carried: string, source: Map<string, string>): string {
  const have = rootNamespaces(xml)
  const used = new Set<string>()
  for (const m of carried.matchAll(/<\/?([\w.-]+):|\s([\w.-]+):[\w.-]+\s*=/g)) {
    const prefix = m[1] ?? m[2]!
    if (prefix !== 'xmlns' && prefix !== 'xml') used.add(prefix)
  }
  const missing = [...used].filter((p) => !have.has(p) && source.has(p))
  if (missing.length === 0) return xml
  const decls = missing.map((p) => ` xmlns:${p}="${source.get(p)}"`).join('')
  return xml.replace(/<(?!\?)(?!!)([\w:.-]+)\b/, (m) => `${m}${decls}`)
}
