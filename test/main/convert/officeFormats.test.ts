import * as XLSX from '@e965/xlsx'
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { createConverter } from '../../../src/main/convert'
import { core } from './corpus'

const corpusFile = (name: string) => core.file(name)

const converter = createConverter({ ocr: false })

function workbook(): Uint8Array {
  const book = XLSX.utils.book_new()
  const sheet = XLSX.utils.aoa_to_sheet(
    [
      ['Sales report 2024'],
      [],
      ['Region', 'Date', 'Units', 'Price', '', 'Note'],
      ['North', new Date(Date.UTC(2024, 0, 15)), 12, 3.5, '', 'first'],
      ['', new Date(Date.UTC(2024, 1, 1)), 7, 1234.5, '', ''],
    ],
    { cellDates: true },
  )
  sheet['!merges'] = [
    { s: { r: 0, c: 0 }, e: { r: 0, c: 5 } },
    { s: { r: 3, c: 0 }, e: { r: 4, c: 0 } },
  ]
  for (const ref of ['B4', 'B5']) (sheet[ref] as XLSX.CellObject).z = 'yyyy-mm-dd'
  for (const ref of ['D4', 'D5']) (sheet[ref] as XLSX.CellObject).z = '#,##0.00'
  XLSX.utils.book_append_sheet(book, sheet, 'Sales')
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([]), 'Empty')
  return new Uint8Array(XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer)
}

describe('xlsx', () => {
  it('shows formatted cell text, finds the header under the title, prunes and fills merges', async () => {
    const { markdown, format } = await converter.convert({ name: 'sales.xlsx', bytes: workbook() })
    expect(format).toBe('xlsx')
    expect(markdown).toBe(
      [
        '## Sales',
        '',
        'Sales report 2024',
        '',
        '| Region | Date | Units | Price | Note |',
        '| --- | --- | --- | --- | --- |',
        '| North | 2024-01-15 | 12 | 3.50 | first |',
        '| North | 2024-02-01 | 7 | 1,234.50 |  |',
        '',
        '## Empty',
        '',
        '(empty sheet)',
      ].join('\n'),
    )
  })
})

describe('pptx', () => {
  it('adds speaker notes after the slide content', async () => {
    const files = unzipSync(corpusFile('deck.pptx'))
    const relsPath = 'ppt/slides/_rels/slide1.xml.rels'
    const rels = strFromU8(files[relsPath] as Uint8Array).replace(
      '</Relationships>',
      '<Relationship Id="rIdNotes" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/notesSlide" Target="../notesSlides/notesSlide1.xml"/></Relationships>',
    )
    const notes = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<p:notes xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"><p:cSld><p:spTree>
<p:sp><p:nvSpPr><p:cNvPr id="2" name="Slide Image"/><p:cNvSpPr/><p:nvPr><p:ph type="sldImg"/></p:nvPr></p:nvSpPr><p:spPr/></p:sp>
<p:sp><p:nvSpPr><p:cNvPr id="3" name="Notes"/><p:cNvSpPr/><p:nvPr><p:ph type="body" idx="1"/></p:nvPr></p:nvSpPr><p:spPr/>
<p:txBody><a:bodyPr/><a:p><a:r><a:t>Remember to thank the team.</a:t></a:r></a:p></p:txBody></p:sp>
</p:spTree></p:cSld></p:notes>`
    const bytes = zipSync({
      ...files,
      [relsPath]: strToU8(rels),
      'ppt/notesSlides/notesSlide1.xml': strToU8(notes),
    })
    const { markdown } = await converter.convert({ name: 'deck.pptx', bytes })
    const slide1 = markdown.slice(0, markdown.indexOf('## Slide 2'))
    expect(slide1).toContain('### Notes\n\nRemember to thank the team.')
  })

  it('keeps images as data URIs when asked', async () => {
    const { markdown } = await converter.convert(
      { name: 'deck.pptx', bytes: corpusFile('deck.pptx') },
      { keepDataUris: true },
    )
    expect(markdown).toMatch(/!\[[^\]]*\]\(data:image\/png;base64,iVBORw0KGgo/)
  })
})
