import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { unzipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { rewriteMath } from '../../../src/main/convert/docx/inlineMath'
import { htmlparser2Nodes } from '../../../src/main/convert/docx/ommlHtmlparser2'
import { type MathNode, mathNodes } from '../../../src/main/convert/docx/ommlNodes'
import { pruneStyles } from '../../../src/main/convert/docx/pruneStyles'
import { parseWithSaxes } from '../../../src/main/convert/docx/saxesParse'
import { parseXmlPart } from '../../../src/main/convert/docx/saxesXmlReader'
import { readPlainXml } from '../../../src/main/convert/xml/plainXml'
import { describeNeeding } from '../../support/requirements'
import { seededRandom } from '../../support/seededRandom'
import { CORPUS, corpus, docxFixtures } from './corpus'

// The plain-XML reader reads Office's parts in place of saxes (mammoth's tree) and of htmlparser2
// (Office Math): within what it reads, the same trees; outside, it says no and they read the part.

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main'
const namespaces = { [W]: 'w', 'urn:o': 'o' }
const ignore = { open() {}, close() {}, text() {} }
const isPlain = (xml: string) => readPlainXml(xml, ignore, { normaliseAttributeSpace: true })

/** Every XML part of the .docx fixtures, with the styles and text parts also as mammoth is handed them. */
async function parts(): Promise<[string, string][]> {
  const found: [string, string][] = []
  for (const path of docxFixtures('the plain-XML reader')) {
    const file = basename(path)
    const zip = unzipSync(new Uint8Array(readFileSync(path)))
    for (const [name, data] of Object.entries(zip)) {
      if (!/\.(xml|rels)$/.test(name)) continue
      const text = new TextDecoder().decode(data)
      found.push([`${file}:${name}`, text])
      if (name === 'word/styles.xml') found.push([`${file}:${name} (pruned)`, pruneStyles(text)])
      if (name === 'word/document.xml') found.push([`${file}:${name} (math)`, await rewriteMath(text)])
    }
  }
  return found
}

function random(seed: number) {
  const next = seededRandom(seed)
  return <T>(items: readonly T[], common = items.length): T =>
    items[Math.floor(next() * (next() < 0.9 ? common : items.length))] as T
}

const TEXT = [
  ...['a', ' ', '\n', '\t', '&amp;', '&lt;', '&gt;', '&quot;', '&apos;', '&#65;', '&#x263A;', '>', 'Ω', '😀'],
  ...['\r\n', '&#13;', '&nbsp;', '&', ']]>', '\u0001', '<!-- c -->', '<![CDATA[x]]>', '<?pi x?>', '&#128;'],
]
const NAMES = ['w:p', 'w:r', 'w:t', 'p', 'o:x', 'w:a.b', 'q:y', 'w:', 'w:a:b', 'é', 'xmlns:z', '1a']
const ATTRIBUTES = ['w:val', 'val', 'xml:space', 'w:id', 'a', 'xmlns:o', '__proto__', 'xmlns', 'xmlns:q']
const VALUES = ['1', '', 'a b', 'x\ty', 'x\ny', '&amp;', '&lt;x', W, 'urn:o', '<', 'x\r\ny', '&#9;', 'a&b']

function randomXml(seed: number): string {
  const pick = random(seed)
  const attributes = () =>
    Array.from({ length: Math.floor(pick([0, 1, 2, 3])) }, () => {
      const quote = pick(['"', '"', "'"])
      const value = pick(VALUES, 8).replaceAll(quote, '')
      return `${pick([' ', ' ', '\t', '\n', ''], 4)}${pick(ATTRIBUTES, 6)}${pick(['=', ' = '])}${quote}${value}${quote}`
    }).join('')
  const element = (depth: number): string => {
    const name = pick(NAMES, 5)
    if (depth > 3 || pick([0, 0, 1]) === 1) return `<${name}${attributes()}${pick(['/>', ' />'])}`
    const inner = Array.from({ length: pick([0, 1, 2, 3]) }, () =>
      pick([0, 1]) ? pick(TEXT, 14) + pick(['', ...TEXT], 15) : element(depth + 1),
    ).join('')
    return `<${name}${attributes()}>${inner}</${pick([name, name, name, name, name, name, 'w:x'])}>`
  }
  const declaration = pick([
    '',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n',
    '<?xml version="1.1"?>',
  ])
  return `${declaration}<w:document xmlns:w="${W}" xmlns:o="urn:o">${element(0)}${element(0)}</w:document>${pick(['', '\r\n', 'x'], 2)}`
}

describe('the plain-XML reader', () => {
  it("reads every XML part of the .docx fixtures itself, into saxes's tree", async () => {
    const found = await parts()
    // The project's two documents have 38 parts; with the corpus's documents there are hundreds.
    const withCorpus = docxFixtures('the plain-XML reader').length > 2
    expect(found.length).toBeGreaterThan(withCorpus ? 40 : 30)
    for (const [label, xml] of found) {
      expect(isPlain(xml), label).toBe(true)
      expect(JSON.stringify(await parseXmlPart(xml, namespaces)), label).toBe(
        JSON.stringify(parseWithSaxes(xml, namespaces)),
      )
    }
  })

  it('gives what saxes gives on 3,000 random documents, reading a good share itself', async () => {
    let plain = 0
    let read = 0
    for (let seed = 1; seed <= 3000; seed++) {
      const xml = randomXml(seed)
      if (isPlain(xml)) plain++
      const ours = await parseXmlPart(xml, namespaces)
      if (ours) read++
      expect(JSON.stringify(ours), xml).toBe(JSON.stringify(parseWithSaxes(xml, namespaces)))
    }
    expect(plain).toBeGreaterThan(300)
    expect(read).toBeGreaterThan(300)
  })

  it.each([
    ['a comment', '<a><!-- c --></a>'],
    ['CDATA', '<a><![CDATA[x]]></a>'],
    ['a processing instruction', '<a><?pi x?></a>'],
    ['a DOCTYPE', '<!DOCTYPE a><a/>'],
    ['a declaration not at the start', ' <?xml version="1.0"?><a/>'],
    ['an unknown entity', '<a>&nbsp;</a>'],
    ['a bare ampersand', '<a>x & y</a>'],
    ['a C1 control as a reference', '<a>&#128;</a>'],
    ['a carriage return in the markup', '<a>x\r\ny</a>'],
    ['a character XML forbids', '<a>\u0001</a>'],
    ['a lone surrogate', '<a>\ud800</a>'],
    [']]> in text', '<a>]]></a>'],
    ['< in an attribute', '<a b="<"/>'],
    ['a duplicate attribute', '<a b="1" b="2"/>'],
    ['attributes without space between', '<a b="1"c="2"/>'],
    ['an unquoted attribute', '<a b=1/>'],
    ['a mismatched end tag', '<a><b></a></b>'],
    ['a non-ASCII name', '<é/>'],
    ['an unclosed element', '<a><b/>'],
  ])('refuses %s', (_label, xml) => {
    expect(isPlain(xml)).toBe(false)
  })

  it('reads CR LF after the declaration and after the root (outside the markup)', () => {
    expect(isPlain('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<a>x</a>\r\n')).toBe(true)
  })

  it('reads tabs and line feeds in attribute values as spaces for saxes, as written for htmlparser2', () => {
    const values: string[][] = []
    const collect = { ...ignore, open: (_name: string, attributes: string[]) => values.push(attributes) }
    readPlainXml('<x a="1\t2\n3&#9;4" b=\'&lt;\'/>', collect, { normaliseAttributeSpace: true })
    readPlainXml('<x a="1\t2\n3&#9;4" b=\'&lt;\'/>', collect, { normaliseAttributeSpace: false })
    expect(values).toEqual([
      ['a', '1 2 3\t4', 'b', '<'],
      ['a', '1\t2\n3\t4', 'b', '<'],
    ])
  })
})

/** A node as plain data, for comparing the two sources of math nodes. */
function shape(node: MathNode): unknown {
  if (node.type === 'text') return { text: node.data }
  if (node.type !== 'tag') return { other: true }
  return { name: node.name, attribs: { ...node.attribs }, children: node.children.map(shape) }
}

describeNeeding([CORPUS], 'Office Math nodes of a real document', () => {
  it('every equation of equations.docx reads as htmlparser2 reads it, without htmlparser2', async () => {
    const zip = unzipSync(new Uint8Array(corpus.file('equations.docx')))
    const xml = new TextDecoder().decode(zip['word/document.xml'])
    const blocks = [...xml.matchAll(/<m:oMathPara\b[\s\S]*?<\/m:oMathPara>|<m:oMath\b[\s\S]*?<\/m:oMath>/g)]
    expect(blocks.length).toBeGreaterThanOrEqual(4)
    for (const [block] of blocks) {
      expect(readPlainXml(block, ignore, { normaliseAttributeSpace: false })).toBe(true)
      expect((await mathNodes(block)).map(shape)).toEqual((htmlparser2Nodes(block) as MathNode[]).map(shape))
    }
  })

  it('math that is not plain XML is read by htmlparser2', async () => {
    const block = '<m:oMath><m:r><m:t>a<!-- note -->b&nbsp;</m:t></m:r></m:oMath>'
    expect((await mathNodes(block)).map(shape)).toEqual((htmlparser2Nodes(block) as MathNode[]).map(shape))
    expect(JSON.stringify((await mathNodes(block)).map(shape))).toContain('&nbsp;')
  })
})
