import { strFromU8, strToU8 } from 'fflate'
import { afterSheetData } from './xmlScan'

/**
 * A worksheet part cut into the root start tag (`head`), the cell data left as bytes (`middle`), and
 * everything after `</sheetData>` (`tail`): the carry-over edits only the head and tail, so a sheet of
 * tens of megabytes is never decoded or re-encoded.
 */
export interface SplitSheet {
  head: string
  middle: Uint8Array
  tail: string
  /** Where the root's children after the cell data start in `tail` (0 unless the part could not be cut). */
  from: number
}

const SHEET_DATA_END = strToU8('</sheetData>')

function lastIndexOfBytes(bytes: Uint8Array, pattern: Uint8Array): number {
  outer: for (let i = bytes.length - pattern.length; i >= 0; i--) {
    for (let j = 0; j < pattern.length; j++) if (bytes[i + j] !== pattern[j]) continue outer
    return i
  }
  return -1
}

export function splitSheet(bytes: Uint8Array): SplitSheet {
  const start = strFromU8(bytes.subarray(0, Math.min(bytes.length, 16_384)))
  const root = /<(?:\w+:)?(?:worksheet|chartsheet)\b[^>]*>/.exec(start)
  const dataEnd = lastIndexOfBytes(bytes, SHEET_DATA_END)
  const whole = (): SplitSheet => {
    const text = strFromU8(bytes)
    return { head: '', middle: new Uint8Array(0), tail: text, from: afterSheetData(text) }
  }
  if (!root || dataEnd < 0) return whole()
  const headBytes = strToU8(start.slice(0, root.index + root[0].length)).length
  if (headBytes > dataEnd) return whole()
  const tailStart = dataEnd + SHEET_DATA_END.length
  return {
    head: strFromU8(bytes.subarray(0, headBytes)),
    middle: bytes.subarray(headBytes, tailStart),
    tail: strFromU8(bytes.subarray(tailStart)),
    from: 0,
  }
}

export function joinSheet(sheet: SplitSheet): Uint8Array {
  const head = strToU8(sheet.head)
  const tail = strToU8(sheet.tail)
  const out = new Uint8Array(head.length + sheet.middle.length + tail.length)
  out.set(head, 0)
  out.set(sheet.middle, head.length)
  out.set(tail, head.length + sheet.middle.length)
  return out
}

/** The text whose root declarations matter: the head, or the whole part when it could not be split. */
export function rootText(sheet: SplitSheet): string {
  return sheet.head || sheet.tail
}
