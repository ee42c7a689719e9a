const tableParts = new Set(['TABLE', 'TBODY', 'THEAD', 'TFOOT', 'TR', 'TD', 'TH'])

/**
 * Gives the table around a table part one live `rows` collection, as the DOM standard has it
 * ([SameObject]). domino builds and fills a new collection on every read, and the GFM rules read it
 * in loops over cells, rows and columns: a 400-row table took 16 s. The pinned collection stays
 * live (domino re-walks it after a change, which reading `length` checks for).
 */
export function pinTableRows(node: Node): void {
  if (!tableParts.has(node.nodeName)) return
  let table: Node | null = node
  while (table && table.nodeName !== 'TABLE') table = table.parentNode
  if (!table || Object.hasOwn(table, 'rows')) return
  const rows = (table as HTMLTableElement).rows
  Object.defineProperty(table, 'rows', {
    configurable: true,
    get: () => {
      void rows.length
      return rows
    },
  })
}
