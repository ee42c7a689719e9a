import { AppError } from '../../../shared/errors'
import type { SheetPlaceholder } from '../../../shared/ipc'
import { readChart } from './charts'
import { openSheet, type SheetModel, sharedStrings } from './sheetStream'
import { readStyles, type WorkbookStyles } from './styles'
import { columnLetters, elements, firstElement } from './xml'
import { openZip, type ZipPackage } from './zipPackage'

export type { SheetModel } from './sheetStream'
export { MAX_UNPACKED_BYTES } from './zipPackage'

export interface WorkbookModel {
  sheets: SheetModel[]
  styles: WorkbookStyles
}

const utf8 = new TextDecoder()

const text = (zip: ZipPackage, name: string): string | undefined => {
  const bytes = zip.read(name)
  return bytes ? utf8.decode(bytes) : undefined
}

function relsOf(zip: ZipPackage, part: string): Map<string, { target: string; type: string }> {
  const slash = part.lastIndexOf('/')
  const relsPath = `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`
  const out = new Map<string, { target: string; type: string }>()
  const xml = text(zip, relsPath)
  if (!xml) return out
  const base = part.slice(0, slash + 1)
  for (const rel of elements(xml, 'Relationship')) {
    const target = rel.attrs.Target ?? ''
    if (rel.attrs.TargetMode === 'External') continue
    out.set(rel.attrs.Id ?? '', { target: resolvePart(base, target), type: rel.attrs.Type ?? '' })
  }
  return out
}

function resolvePart(base: string, target: string): string {
  const segments = (target.startsWith('/') ? target.slice(1) : base + target).split('/')
  const out: string[] = []
  for (const segment of segments) {
    if (segment === '..') out.pop()
    else if (segment !== '.' && segment !== '') out.push(segment)
  }
  return out.join('/')
}

function anchorOf(anchor: string, corner: 'from' | 'to'): string | undefined {
  const marker = firstElement(anchor, corner)
  if (!marker) return undefined
  const col = Number(firstElement(marker.inner, 'col')?.inner ?? 0)
  const row = Number(firstElement(marker.inner, 'row')?.inner ?? 0)
  if (!Number.isInteger(col) || !Number.isInteger(row) || col < 0 || row < 0) return undefined
  return `${columnLetters(Math.min(col + 1, 16_384))}${Math.min(row + 1, 1_048_576)}`
}

function placeholdersOf(zip: ZipPackage, sheetPart: string): SheetPlaceholder[] {
  const out: SheetPlaceholder[] = []
  for (const rel of relsOf(zip, sheetPart).values()) {
    if (rel.type.endsWith('/pivotTable')) {
      const xml = text(zip, rel.target) ?? ''
      const definition = firstElement(xml, 'pivotTableDefinition')?.attrs
      const location = firstElement(xml, 'location')?.attrs.ref ?? 'A1'
      out.push({
        kind: 'pivot',
        title: definition?.name ?? 'Pivot table',
        anchor: location.split(':')[0] ?? 'A1',
      })
    } else if (rel.type.endsWith('/drawing')) {
      const xml = text(zip, rel.target) ?? ''
      const drawingRels = relsOf(zip, rel.target)
      for (const kind of ['twoCellAnchor', 'oneCellAnchor', 'absoluteAnchor']) {
        for (const anchor of elements(xml, kind)) {
          const cell = anchorOf(anchor.inner, 'from') ?? 'A1'
          const to = anchorOf(anchor.inner, 'to')
          const at = to ? { anchor: cell, to } : { anchor: cell }
          const chart = /<(?:\w+:)?chart\b[^>]*\br:id="([^"]+)"/.exec(anchor.inner)
          if (chart?.[1]) {
            const read = readChart(text(zip, drawingRels.get(chart[1])?.target ?? '') ?? '')
            const name = firstElement(anchor.inner, 'cNvPr')?.attrs.name
            out.push({
              kind: 'chart',
              title: read.title || name || 'Chart',
              ...at,
              ...(read.chart ? { chart: read.chart } : {}),
            })
          } else if (firstElement(anchor.inner, 'pic')) {
            const name = firstElement(anchor.inner, 'cNvPr')?.attrs.name
            out.push({ kind: 'image', title: name || 'Picture', ...at })
          }
        }
      }
    }
  }
  return out
}

/**
 * Opens a workbook's package for the preview: the small parts read whole, each sheet read only as far as
 * its first rows (all of it when small); later rows are read when a page of them is asked for.
 */
export async function readWorkbook(bytes: Uint8Array): Promise<WorkbookModel> {
  const zip = openZip(bytes)
  const names = zip.names()
  const workbookPart =
    names.find((name) => /^xl\/workbook\d*\.xml$/i.test(name)) ??
    names.find((name) => /workbook\.xml$/i.test(name))
  const workbookXml = workbookPart ? text(zip, workbookPart) : undefined
  if (!workbookPart || !workbookXml)
    throw new AppError(
      'VALIDATION_FAILED',
      'The file is not a readable .xlsx workbook (it has no workbook part).',
    )
  const rels = relsOf(zip, workbookPart)
  let stylesPart: string | undefined
  let stringsPart: string | undefined
  for (const rel of rels.values()) {
    if (rel.type.endsWith('/styles')) stylesPart = rel.target
    if (rel.type.endsWith('/sharedStrings')) stringsPart = rel.target
  }
  const styles = readStyles(stylesPart ? text(zip, stylesPart) : undefined)
  const strings = sharedStrings(stringsPart ? text(zip, stringsPart) : undefined)

  const sheets: SheetModel[] = []
  for (const sheet of elements(firstElement(workbookXml, 'sheets')?.inner ?? '', 'sheet')) {
    const target = rels.get(sheet.attrs['r:id'] ?? sheet.attrs.id ?? '')
    if (!target?.type.endsWith('/worksheet')) continue
    const part = zip.stream(target.target)
    if (!part) continue
    const hidden = sheet.attrs.state === 'hidden' || sheet.attrs.state === 'veryHidden'
    sheets.push(
      await openSheet({
        part,
        name: sheet.attrs.name ?? `Sheet${sheets.length + 1}`,
        hidden,
        strings,
        styles,
        placeholders: placeholdersOf(zip, target.target),
      }),
    )
  }
  if (sheets.length === 0) throw new AppError('VALIDATION_FAILED', 'The workbook has no worksheet to show.')
  return { sheets, styles }
}

/** The cells whose value or formula differ between two workbooks, per sheet (sheet order of `next`). */
export async function compareWorkbooks(
  next: WorkbookModel,
  previous: WorkbookModel,
  limit: number,
): Promise<{ sheets: { sheet: string; cells: string[] }[]; truncated: boolean }> {
  let left = limit
  let truncated = false
  const out: { sheet: string; cells: string[] }[] = []
  for (const sheet of next.sheets) {
    const before =
      (await previous.sheets.find((s) => s.info.name === sheet.info.name)?.fingerprint()) ??
      new Map<string, string>()
    const after = await sheet.fingerprint()
    const cells: string[] = []
    for (const [ref, value] of after) if (before.get(ref) !== value) cells.push(ref)
    for (const ref of before.keys()) if (!after.has(ref)) cells.push(ref)
    if (cells.length > left) {
      truncated = true
      cells.length = left
    }
    left -= cells.length
    if (cells.length) out.push({ sheet: sheet.info.name, cells })
  }
  return { sheets: out, truncated }
}
