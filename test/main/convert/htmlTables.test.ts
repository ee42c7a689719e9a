import { describe, expect, it } from 'vitest'
import { htmlToMarkdown } from '../../../src/main/convert/markdown/htmlToMarkdown'
import { parseHtml } from '../../../src/main/convert/markdown/parseHtml'
import { pinTableRows } from '../../../src/main/convert/markdown/tableRows'

function tableHtml(rows: number, columns: number): string {
  const row = (r: number) =>
    `<tr>${Array.from({ length: columns }, (_, c) => `<td>r${r}c${c}</td>`).join('')}</tr>`
  return `<table>${Array.from({ length: rows }, (_, r) => row(r)).join('')}</table>`
}

describe('HTML tables to Markdown', () => {
  it('gives a table one live rows collection, as the DOM standard does', () => {
    const document = parseHtml(tableHtml(2, 2))
    const table = document.querySelector('table') as HTMLTableElement
    expect(table.rows).not.toBe(table.rows)
    pinTableRows(table.querySelector('td') as Node)
    const rows = table.rows
    expect(table.rows).toBe(rows)
    expect(rows.length).toBe(2)
    table.querySelector('tbody')?.appendChild(document.createElement('tr'))
    expect(table.rows.length).toBe(3)
    expect(table.rows[2]?.nodeName).toBe('TR')
  })

  it('converts a large table whole: every row, the header promoted, the separator once', () => {
    const markdown = htmlToMarkdown(tableHtml(600, 8), { dataImages: 'drop' })
    const lines = markdown.split('\n')
    expect(lines).toHaveLength(601)
    expect(lines[0]).toBe('| r0c0 | r0c1 | r0c2 | r0c3 | r0c4 | r0c5 | r0c6 | r0c7 |')
    expect(lines[1]).toMatch(/^\| --- \|/)
    expect(lines[600]).toContain('r599c7')
    expect(lines.filter((line) => line.includes('---'))).toHaveLength(1)
  })

  it('flattens blocks and nested tables inside cells, and keeps a real header row', () => {
    const html =
      '<table><tr><th>Item</th><th>Notes</th></tr>' +
      '<tr><td><p>Pens</p></td><td><ul><li>blue</li><li>red</li></ul></td></tr>' +
      '<tr><td>Boxes</td><td><table><tr><th>inner</th><td>x</td></tr></table></td></tr></table>'
    const lines = htmlToMarkdown(html, { dataImages: 'drop' }).split('\n')
    expect(lines[0]).toBe('| Item | Notes |')
    expect(lines[2]).toBe('| Pens | • blue  <br>• red |')
    expect(lines[3]).toBe('| Boxes | inner x |')
  })
})
