import { createHash } from 'node:crypto'

/**
 * A tiny PDF writer for layout tests: pages of content-stream text (Helvetica, Helvetica-Bold) and
 * lines, with a correct cross-reference table. Coordinates are PDF points, origin bottom-left.
 */
export interface PdfPage {
  content: string[]
  /**
   * An image (uncompressed, 8 bits) drawn at its pixel size from the bottom-left corner, as `/Im1`:
   * grey 'x' pixels, or the RGB bytes given.
   */
  image?: { width: number; height: number; rgb?: Uint8Array }
  /** A form XObject `/Fm1` drawn after the content, its own content placed by `matrix`. */
  form?: { content: string[]; matrix: [number, number, number, number, number, number] }
  /** A FlateDecode content stream used instead of `content` (for inflation limits). */
  deflated?: Uint8Array
}

export interface PdfOptions {
  /** The document information's Title. */
  title?: string
  /** Standard security handler, RC4 40-bit (revision 2): an empty user password opens without asking. */
  encrypt?: { user: string; owner: string }
}

export function text(
  x: number,
  y: number,
  value: string,
  options: { size?: number; bold?: boolean } = {},
): string {
  // WinAnsiEncoding puts the bullet at 0x95; other characters used here are ASCII.
  const escaped = value.replace(/[\\()]/g, '\\$&').replace(/•/g, '\\225')
  return `BT /${options.bold ? 'F2' : 'F1'} ${options.size ?? 10} Tf ${x} ${y} Td (${escaped}) Tj ET`
}

export function line(x0: number, y0: number, x1: number, y1: number): string {
  return `0.5 w ${x0} ${y0} m ${x1} ${y1} l S`
}

/** A bordered grid: column edges and row edges (top to bottom), every cell's text centred-left. */
export function borderedTable(columns: number[], rows: number[], cells: string[][]): string[] {
  const ops: string[] = []
  const left = columns[0] as number
  const right = columns[columns.length - 1] as number
  const top = rows[0] as number
  const bottom = rows[rows.length - 1] as number
  for (const y of rows) ops.push(line(left, y, right, y))
  for (const x of columns) ops.push(line(x, top, x, bottom))
  cells.forEach((row, r) => {
    row.forEach((cell, c) => {
      if (cell)
        ops.push(text((columns[c] as number) + 3, (rows[r + 1] as number) + 5, cell, { bold: r === 0 }))
    })
  })
  return ops
}

const PASSWORD_PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex')

function rc4(key: Uint8Array, data: Uint8Array): Buffer {
  const state = Array.from({ length: 256 }, (_, i) => i)
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + (state[i] as number) + (key[i % key.length] as number)) & 255
    ;[state[i], state[j]] = [state[j] as number, state[i] as number]
  }
  const out = Buffer.alloc(data.length)
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 255
    j = (j + (state[i] as number)) & 255
    ;[state[i], state[j]] = [state[j] as number, state[i] as number]
    out[n] = (data[n] as number) ^ (state[((state[i] as number) + (state[j] as number)) & 255] as number)
  }
  return out
}

const md5 = (...parts: Uint8Array[]) => createHash('md5').update(Buffer.concat(parts)).digest()
const padded = (password: string) =>
  Buffer.concat([Buffer.from(password, 'latin1'), PASSWORD_PAD]).subarray(0, 32)

/** The entries of a revision 2 Encrypt dictionary and the per-object cipher (PDF 32000-1, 7.6.3). */
function security(encrypt: { user: string; owner: string }) {
  const id = Buffer.from('bureau-test-file', 'latin1')
  const owner = rc4(md5(padded(encrypt.owner)).subarray(0, 5), padded(encrypt.user))
  const permissions = Buffer.alloc(4)
  permissions.writeInt32LE(-4)
  const key = md5(padded(encrypt.user), owner, permissions, id).subarray(0, 5)
  const cipher = (objectNumber: number, data: Uint8Array) => {
    const suffix = Buffer.from([objectNumber & 255, (objectNumber >> 8) & 255, objectNumber >> 16, 0, 0])
    return rc4(md5(key, suffix).subarray(0, 10), data)
  }
  const dictionary = `<< /Filter /Standard /V 1 /R 2 /O <${owner.toString('hex')}> /U <${rc4(key, PASSWORD_PAD).toString('hex')}> /P -4 >>`
  return { id, cipher, dictionary }
}

export function writePdf(pages: PdfPage[], options: PdfOptions = {}): Uint8Array {
  const objects: string[] = []
  const add = (body: string) => {
    objects.push(body)
    return objects.length
  }
  const secured = options.encrypt ? security(options.encrypt) : undefined
  /** A stream object; encrypted with the object's key when the document is. */
  const addStream = (dictionary: string, data: string) => {
    const number = objects.length + 1
    const bytes = secured ? secured.cipher(number, Buffer.from(data, 'latin1')).toString('latin1') : data
    return add(
      `<< ${dictionary} /Length ${Buffer.byteLength(bytes, 'latin1')} >>\nstream\n${bytes}\nendstream`,
    )
  }
  const catalog = add('')
  const pagesRef = add('')
  const regular = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>')
  const bold = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>')
  const kids: number[] = []
  for (const page of pages) {
    let xObjects = ''
    let draw = ''
    const fonts = `/Font << /F1 ${regular} 0 R /F2 ${bold} 0 R >>`
    if (page.image) {
      const { width, height, rgb } = page.image
      const pixels = rgb ? Buffer.from(rgb).toString('latin1') : 'x'.repeat(width * height)
      const image = addStream(
        `/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /Device${rgb ? 'RGB' : 'Gray'} /BitsPerComponent 8`,
        pixels,
      )
      xObjects += ` /Im1 ${image} 0 R`
      draw = `q ${width} 0 0 ${height} 0 0 cm /Im1 Do Q\n`
    }
    let after = ''
    if (page.form) {
      const form = addStream(
        `/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Matrix [${page.form.matrix.join(' ')}] /Resources << ${fonts} >>`,
        page.form.content.join('\n'),
      )
      xObjects += ` /Fm1 ${form} 0 R`
      after = '\n/Fm1 Do'
    }
    const stream = page.deflated
      ? Buffer.from(page.deflated).toString('latin1')
      : draw + page.content.join('\n') + after
    const content = addStream(page.deflated ? '/Filter /FlateDecode' : '', stream)
    const resources = `<< ${fonts}${xObjects ? ` /XObject <<${xObjects} >>` : ''} >>`
    kids.push(
      add(
        `<< /Type /Page /Parent ${pagesRef} 0 R /MediaBox [0 0 612 792] /Resources ${resources} /Contents ${content} 0 R >>`,
      ),
    )
  }
  let trailerExtra = ''
  if (options.title !== undefined) {
    const number = objects.length + 1
    const title = Buffer.from(options.title, 'latin1')
    const value = secured ? secured.cipher(number, title) : title
    trailerExtra += ` /Info ${add(`<< /Title <${value.toString('hex')}> >>`)} 0 R`
  }
  if (secured) {
    const hex = secured.id.toString('hex')
    trailerExtra += ` /Encrypt ${add(secured.dictionary)} 0 R /ID [<${hex}> <${hex}>]`
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesRef} 0 R >>`
  objects[pagesRef - 1] =
    `<< /Type /Pages /Kids [${kids.map((kid) => `${kid} 0 R`).join(' ')}] /Count ${kids.length} >>`
  let out = '%PDF-1.4\n'
  const offsets: number[] = []
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(out, 'latin1'))
    out += `${index + 1} 0 obj\n${body}\nendobj\n`
  })
  const xref = Buffer.byteLength(out, 'latin1')
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R${trailerExtra} >>\nstartxref\n${xref}\n%%EOF\n`
  return new Uint8Array(Buffer.from(out, 'latin1'))
}
