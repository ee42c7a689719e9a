/**
 * pdf.js 5 finds page n by walking the page tree from the root, and every walk pushes all kids of each
 * node it enters: on a flat tree (one /Pages node with every page as a kid, what simple producers write)
 * reading N pages costs N² steps (20,000 pages: minutes). pdf.js has one linear path: when the root's
 * /Count promises more pages than the tree holds, it indexes the whole tree in one pass
 * (`Catalog.getAllPageDicts`, from `checkLastPage`) and answers every later page from that index, with
 * the real page count. So for a large document the root's /Count is overstated in the copy pdf.js reads:
 * same length (offsets stay valid), a number pdf.js then corrects. Only an uncompressed root is found;
 * one inside an object stream keeps pdf.js's own walk.
 */
export const INDEXED_FROM_PAGES = 100

const WINDOW = 4096

function latin1(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('latin1')
}

/** The object number and generation the catalog's /Pages points to. */
function rootPagesRef(bytes: Buffer): string | undefined {
  // From the end: an incremental update appends a newer catalog, and pdf.js reads the newest.
  for (
    let at = bytes.lastIndexOf('/Catalog');
    at >= 0;
    at = at > 0 ? bytes.lastIndexOf('/Catalog', at - 1) : -1
  ) {
    const start = Math.max(0, at - WINDOW)
    const text = latin1(bytes, start, Math.min(bytes.length, at + WINDOW))
    const here = at - start
    const from = text.lastIndexOf('obj', here)
    const endAt = text.indexOf('endobj', here)
    const body = text.slice(Math.max(from, 0), endAt < 0 ? text.length : endAt)
    const match = /\/Pages\s+(\d+)\s+(\d+)\s+R/.exec(body)
    if (match) return `${match[1]} ${match[2]} obj`
  }
  return undefined
}

function isDelimiter(byte: number | undefined): boolean {
  return byte === undefined || byte === 0x0a || byte === 0x0d || byte === 0x20 || byte === 0x09
}

/**
 * Overstates the root /Count in `bytes` (changed in place) when it is at least `INDEXED_FROM_PAGES`;
 * returns the page count it found there, or undefined when it changed nothing.
 */
export function indexPageTreeOnce(data: Uint8Array, from = INDEXED_FROM_PAGES): number | undefined {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength)
  const definition = rootPagesRef(bytes)
  if (!definition) return undefined
  let changed: number | undefined
  for (let at = bytes.indexOf(definition); at >= 0; at = bytes.indexOf(definition, at + 1)) {
    if (!isDelimiter(at === 0 ? undefined : bytes[at - 1])) continue
    const end = bytes.indexOf('endobj', at)
    if (end < 0) continue
    const match = /\/Count\s+(\d+)/.exec(latin1(bytes, at, end))
    const digits = match?.[1]
    if (!match || !digits || Number(digits) < from || /^9+$/.test(digits)) continue
    const offset = at + match.index + match[0].length - digits.length
    bytes.write('9'.repeat(digits.length), offset, 'latin1')
    changed = Number(digits)
  }
  return changed
}
