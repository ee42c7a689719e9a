/**
 * A tiny PDF writer for layout tests: pages of content-stream text (Helvetica, Helvetica-Bold) and
 * lines, with a correct cross-reference table. Coordinates are PDF points, origin bottom-left.
 */
export interface PdfPage {
  content: string[]
  /** A grey image (uncompressed, 8 bits) drawn at its pixel size from the bottom-left corner, as `/Im1`. */
  image?: { width: number; height: number }
  /** A FlateDecode content stream used instead of `content` (for inflation limits). */
  deflated?: Uint8Array
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

export function writePdf(pages: PdfPage[]): Uint8Array {
  const objects: string[] = []
  const add = (body: string) => {
    objects.push(body)
    return objects.length
  }
  const catalog = add('')
  const pagesRef = add('')
  const regular = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>')
  const bold = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>')
  const kids: number[] = []
  for (const page of pages) {
    let xObjects = ''
    let draw = ''
    if (page.image) {
      const { width, height } = page.image
      const pixels = 'x'.repeat(width * height)
      const image = add(
        `<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Length ${pixels.length} >>\nstream\n${pixels}\nendstream`,
      )
      xObjects = ` /XObject << /Im1 ${image} 0 R >>`
      draw = `q ${width} 0 0 ${height} 0 0 cm /Im1 Do Q\n`
    }
    const stream = page.deflated
      ? Buffer.from(page.deflated).toString('latin1')
      : draw + page.content.join('\n')
    const filter = page.deflated ? ' /Filter /FlateDecode' : ''
    const content = add(
      `<< /Length ${Buffer.byteLength(stream, 'latin1')}${filter} >>\nstream\n${stream}\nendstream`,
    )
    kids.push(
      add(
        `<< /Type /Page /Parent ${pagesRef} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${regular} 0 R /F2 ${bold} 0 R >>${xObjects} >> /Contents ${content} 0 R >>`,
      ),
    )
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
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return new Uint8Array(Buffer.from(out, 'latin1'))
}
