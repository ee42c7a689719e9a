/** The tables of a Markdown text: runs of `|` lines, separator rows dropped, cells trimmed. */
export function markdownTables(markdown: string): string[][][] {
  const tables: string[][][] = []
  let current: string[][] | undefined
  for (const line of markdown.split('\n')) {
    const trimmed = line.trim()
    if (!trimmed.startsWith('|')) {
      current = undefined
      continue
    }
    const cells = trimmed
      .replace(/^\||\|$/g, '')
      .split(/(?<!\\)\|/)
      .map((cell) => cell.replace(/\\\|/g, '|').replace(/\s+/g, ' ').trim())
    if (cells.every((cell) => /^:?-{3,}:?$/.test(cell))) continue
    if (!current) {
      current = []
      tables.push(current)
    }
    current.push(cells)
  }
  return tables
}

/**
 * Share of the expected table rows found in the actual tables: a row matches when every non-empty
 * expected cell is a cell of one actual row (empty spacer columns and cell order are ignored).
 */
export function tableRowRecall(expected: string[][][], actual: string[][][]): number {
  const actualRows = actual.flat().map((row) => new Set(row.filter(Boolean)))
  const wanted = expected
    .flat()
    .map((row) => row.filter(Boolean))
    .filter((row) => row.length > 0)
  if (wanted.length === 0) return 1
  const found = wanted.filter((row) => actualRows.some((cells) => row.every((cell) => cells.has(cell))))
  return found.length / wanted.length
}
