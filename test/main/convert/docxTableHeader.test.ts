import { Document, Packer, Paragraph, Table, TableCell, TableRow } from 'docx'
import { strFromU8, unzipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { createConverter } from '../../../src/main/convert'

const converter = createConverter({ ocr: false })

/** A two-column table whose body rows say `<w:tblHeader w:val="false"/>`, as the docx library writes them. */
async function tableDocx(): Promise<Uint8Array> {
  const row = (cells: string[], header: boolean) =>
    new TableRow({
      tableHeader: header,
      children: cells.map((text) => new TableCell({ children: [new Paragraph(text)] })),
    })
  const doc = new Document({
    sections: [
      {
        children: [
          new Table({
            rows: [
              row(['Region', 'Revenue'], true),
              row(['North', '48,250'], false),
              row(['South', '39,100'], false),
            ],
          }),
        ],
      },
    ],
  })
  return new Uint8Array(await Packer.toBuffer(doc))
}

describe('docx tables', () => {
  it('a header flag that is switched off does not make a body row a header', async () => {
    const bytes = await tableDocx()
    // The fixture really has the flag (else the test would prove nothing).
    const xml = strFromU8(unzipSync(bytes)['word/document.xml'] as Uint8Array)
    expect(xml).toContain('<w:tblHeader w:val="false"/>')
    const { markdown } = await converter.convert({ name: 'table.docx', bytes })
    expect(markdown.trim()).toBe(
      ['| Region | Revenue |', '| --- | --- |', '| North | 48,250 |', '| South | 39,100 |'].join('\n'),
    )
  })
})
