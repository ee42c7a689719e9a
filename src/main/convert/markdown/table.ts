/** Escapes one cell for a GFM table: pipes escaped, line breaks as <br>, whitespace collapsed. */
export function tableCell(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .filter((line) => line.length > 0)
    .join('<br>')
    .replace(/\|/g, '\\|')
}

/**
 * Renders rows as a GFM table. The first row is the header; when `header` is false an empty
 * header row is emitted so no data row is promoted by accident.
 */
export function renderTable(rows: string[][], options: { header?: boolean } = {}): string {
  const width = Math.max(0, ...rows.map((row) => row.length))
  if (width === 0 || rows.length === 0) return ''
  const pad = (row: string[]) => Array.from({ length: width }, (_, index) => tableCell(row[index] ?? ''))
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`
  const header = options.header === false ? Array.from({ length: width }, () => '') : pad(rows[0] ?? [])
  const body = options.header === false ? rows : rows.slice(1)
  return [
    line(header),
    line(Array.from({ length: width }, () => '---')),
    ...body.map((row) => line(pad(row))),
  ].join('\n')
}
