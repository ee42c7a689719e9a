/** Rows or columns inserted (count > 0) or deleted (count < 0) on one sheet; `at` is 1-based. */
export interface SheetMove {
  axis: 'row' | 'col'
  at: number
  count: number
}

/** Where a zero-based row or column index ends up after the moves, as a spreadsheet moves drawings. */
export function shiftIndex(index: number, axis: SheetMove['axis'], moves: readonly SheetMove[]): number {
  let i = index
  for (const move of moves) {
    if (move.axis !== axis) continue
    const position = i + 1
    if (move.count > 0) {
      if (position >= move.at) i += move.count
    } else {
      const last = move.at - move.count - 1
      if (position > last) i += move.count
      else if (position >= move.at) i = move.at - 1
    }
  }
  return i
}

/** Moves the `from`/`to` cell markers of every anchor in a drawing part. */
export function shiftDrawingAnchors(xml: string, moves: readonly SheetMove[]): string {
  if (moves.length === 0) return xml
  return xml.replace(
    /<((?:\w+:)?)(from|to)>([\s\S]*?)<\/\1\2>/g,
    (_, prefix: string, tag: string, body: string) => {
      const moved = body
        .replace(
          /<((?:\w+:)?)col>(\d+)</,
          (_m, p: string, n: string) => `<${p}col>${shiftIndex(Number(n), 'col', moves)}<`,
        )
        .replace(
          /<((?:\w+:)?)row>(\d+)</,
          (_m, p: string, n: string) => `<${p}row>${shiftIndex(Number(n), 'row', moves)}<`,
        )
      return `<${prefix}${tag}>${moved}</${prefix}${tag}>`
    },
  )
}
