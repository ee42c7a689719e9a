import { readFileSync } from 'node:fs'
import { unzipSync } from 'fflate'
import { read } from 'mammoth/lib/docx/office-xml-reader.js'
import { readStylesXml, type Styles } from 'mammoth/lib/docx/styles-reader.js'
import { describe, expect, it } from 'vitest'
import { pruneStyles } from '../../../../src/main/convert/docx/pruneStyles'
import { core, docxFixtures } from '../corpus'

const docxFiles = docxFixtures('pruneStyles')
const wordWritten = docxFiles.filter((path) => !path.startsWith(core.dir))

function stylesOf(name: string): string {
  const data = unzipSync(new Uint8Array(readFileSync(name)))['word/styles.xml']
  if (!data) throw new Error(`${name} has no word/styles.xml`)
  return new TextDecoder().decode(data)
}

/** Everything mammoth's styles reader answers, for every style id the part names. */
async function answers(xml: string, ids: string[]): Promise<unknown[]> {
  const styles: Styles = readStylesXml(await read(xml))
  return ids.map((id) => [
    styles.findParagraphStyleById(id),
    styles.findCharacterStyleById(id),
    styles.findTableStyleById(id),
    styles.findNumberingStyleById(id),
  ])
}

const numberingStyle = `<?xml version="1.0" encoding="UTF-8"?>
<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:latentStyles w:count="1"><w:lsdException w:name="Normal"/></w:latentStyles>
<w:style w:type="numbering" w:styleId="List&amp;1"><w:name w:val="a &gt; b"/><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="7"/></w:numPr></w:pPr></w:style>
<w:style w:type="numbering" w:styleId="L2"><w:pPr/><w:pPr><w:numPr><w:numId w:val="9"/></w:numPr></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="P"><w:rPr><w:name w:val="inner"/></w:rPr><w:name w:val='Quoted "x"'/><w:name w:val="second"/></w:style>
<w:style w:type="character" w:styleId="P"><w:name w:val="duplicate id"/></w:style></w:styles>`

describe('pruneStyles', () => {
  it.each(docxFiles)('%s: mammoth reads the same styles from the pruned part', async (name) => {
    const xml = stylesOf(name)
    const pruned = pruneStyles(xml)
    expect(pruned.length).toBeLessThan(xml.length)
    const ids = [...xml.matchAll(/w:styleId="([^"]*)"/g)].map((match) => match[1] ?? '')
    expect(ids.length).toBeGreaterThan(10)
    expect(await answers(pruned, ids)).toEqual(await answers(xml, ids))
  })

  // Word writes hundreds of latent styles nobody reads: the pruned part is a small share of its size.
  for (const name of wordWritten)
    it(`${name}: the pruned part is under a fifth of what Word wrote`, () => {
      const xml = stylesOf(name)
      expect(pruneStyles(xml).length).toBeLessThan(xml.length / 5)
    })

  it('keeps names with entities, the first w:pPr/w:numPr/w:numId, duplicate ids and nothing else', async () => {
    const pruned = pruneStyles(numberingStyle)
    expect(pruned).not.toContain('latentStyles')
    expect(pruned).not.toContain('inner')
    const ids = ['List&1', 'L2', 'P']
    const expected = await answers(numberingStyle, ids)
    expect(await answers(pruned, ids)).toEqual(expected)
    expect(expected[0]).toEqual([
      undefined,
      undefined,
      undefined,
      { type: 'numbering', numId: '7', styleId: 'List&1' },
    ])
  })

  it.each([
    ['a truncated part', (xml: string) => xml.slice(0, xml.length - 20)],
    [
      'a namespace declared below the root',
      (xml: string) => xml.replace('<w:style ', '<w:style xmlns:x="urn:x" '),
    ],
    ['a comment', (xml: string) => xml.replace('<w:style ', '<!-- note --><w:style ')],
    [
      'a markup-compatibility block',
      (xml: string) => xml.replace('</w:styles>', '<mc:AlternateContent/></w:styles>'),
    ],
    [
      'another prefix for WordprocessingML',
      (xml: string) =>
        xml.replace(
          '<w:styles ',
          '<w:styles xmlns:v="http://schemas.openxmlformats.org/wordprocessingml/2006/main" ',
        ),
    ],
    [
      'a markup-compatibility block among the latent styles',
      (xml: string) => xml.replace('<w:lsdException ', '<mc:AlternateContent/><w:lsdException '),
    ],
    [
      'stray markup among the latent styles',
      (xml: string) => xml.replace('<w:lsdException ', 'a<b <w:lsdException '),
    ],
  ])('leaves %s as it is', (_label, change) => {
    const xml = change(numberingStyle)
    expect(pruneStyles(xml)).toBe(xml)
  })

  it.each(docxFiles)('%s: latent styles holding other elements or text prune as without them', (name) => {
    // The usual latent styles (only exceptions) are skipped in one match; anything else is scanned tag by tag.
    const xml = stylesOf(name)
    const pruned = pruneStyles(xml)
    for (const inside of [
      '<w:other/>',
      '<w:other a=">"></w:other>',
      'text > here',
      ' <w:lsdException w:name="x"></w:lsdException>',
    ])
      expect(pruneStyles(xml.replace('<w:lsdException ', `${inside}<w:lsdException `))).toBe(pruned)
  })
})
