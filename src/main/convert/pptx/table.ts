import { renderTable } from '../markdown/table'
import { childElements, type Element, localName } from '../xml/parseXml'
import { plainText } from './text'

/** A DrawingML table; merged continuation cells (hMerge/vMerge) repeat nothing and stay empty. */
export function tableMarkdown(table: Element): string {
  const rows: string[][] = []
  for (const row of childElements(table).filter((child) => localName(child) === 'tr')) {
    const cells: string[] = []
    for (const cell of childElements(row).filter((child) => localName(child) === 'tc')) {
      if (cell.attribs.hMerge === '1' || cell.attribs.vMerge === '1') {
        cells.push('')
        continue
      }
      cells.push(plainText(childElements(cell).find((child) => localName(child) === 'txBody')))
    }
    rows.push(cells)
  }
  return renderTable(rows)
}
