import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { unzipSync } from 'fflate'
import { read } from 'mammoth/lib/docx/office-xml-reader.js'
import mammothXml from 'mammoth/lib/xml/index.js'
import { describe, expect, it } from 'vitest'
import { pruneStyles } from '../../../../src/main/convert/docx/pruneStyles'
import { parseWithSaxes } from '../../../../src/main/convert/docx/saxesParse'
import { installSaxesXmlReader, xmldomReadString } from '../../../../src/main/convert/docx/saxesXmlReader'
import { docxFixtures } from '../corpus'

/** The namespace map office-xml-reader hands `readString` (it is not exported). */
async function officeNamespaces(): Promise<Record<string, string>> {
  const installed = mammothXml.readString
  let captured: Record<string, string> | undefined
  mammothXml.readString = (xml, map) => {
    captured = map
    return installed(xml, map)
  }
  try {
    await read('<a/>')
  } finally {
    mammothXml.readString = installed
  }
  if (!captured) throw new Error('office-xml-reader did not pass a namespace map')
  return captured
}

interface Plain {
  name?: string
  nullPrototype?: boolean
  attributes?: Record<string, string>
  children?: Plain[]
  type: string
  value?: string
}

/** A tree as plain data, with whether each attribute object has no prototype (mammoth's are made so). */
function plain(node: unknown): Plain {
  const n = node as {
    type: string
    name?: string
    value?: string
    attributes?: object
    children?: unknown[]
  }
  if (n.type === 'text') return { type: 'text', value: n.value ?? '' }
  return {
    type: n.type,
    name: n.name ?? '',
    nullPrototype: Object.getPrototypeOf(n.attributes) === null,
    attributes: { ...(n.attributes as Record<string, string>) },
    children: (n.children ?? []).map(plain),
  }
}

const docxFiles = docxFixtures('the saxes XML reader')

/** Every XML part of every .docx fixture, and the styles part as mammoth reads it (pruned). */
function xmlParts(): [string, string][] {
  const parts: [string, string][] = []
  for (const path of docxFiles) {
    const file = basename(path)
    const zip = unzipSync(new Uint8Array(readFileSync(path)))
    for (const [name, data] of Object.entries(zip)) {
      if (!/\.(xml|rels)$/.test(name)) continue
      const text = new TextDecoder().decode(data).replace(/^\uFEFF/, '')
      parts.push([`${file}:${name}`, text])
      if (name === 'word/styles.xml') parts.push([`${file}:${name} (pruned)`, pruneStyles(text)])
    }
  }
  return parts
}

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main'

const edgeCases: [string, string][] = [
  [
    'entities and character references',
    `<w:t xmlns:w="${W}" w:a="&lt;&amp;&#x41;&#66;&quot;">a &amp; b &#x263A; &lt;c&gt;</w:t>`,
  ],
  [
    'CDATA, comments and processing instructions split text',
    `<w:p xmlns:w="${W}">one<![CDATA[cd]]>two<!-- c -->three<?pi x?>four</w:p>`,
  ],
  ['whitespace-only text and self-closing tags', `<w:p xmlns:w="${W}">\n  <w:r/>\n  <w:r></w:r>\n</w:p>`],
  ['tabs and newlines in attribute values', `<w:p xmlns:w="${W}" w:a="x\ty\nz  q" b='single "quoted"'/>`],
  [
    'a namespace the map does not know, and an unprefixed attribute',
    `<x:root xmlns:x="urn:unknown" plain="1" x:attr="2"><x:child/></x:root>`,
  ],
  [
    'a default namespace and one declared again below',
    `<root xmlns="${W}" xmlns:o="urn:other"><inner xmlns="urn:inner" o:k="v"><deep/></inner><after/></root>`,
  ],
  [
    'a prefix bound to another namespace lower down',
    `<w:a xmlns:w="${W}"><w:b xmlns:w="urn:changed" w:c="1"/><w:d/></w:a>`,
  ],
  ['xml: attributes', `<w:t xmlns:w="${W}" xml:space="preserve"> kept </w:t>`],
  ['no namespace at all', `<?xml version="1.0"?>\r\n<root a="1"><b>text</b></root>`],
  ['non-ASCII text', `<w:p xmlns:w="${W}"><w:t>Ünïcødé — 日本語 😀</w:t></w:p>`],
  [
    'CR LF and CR in text and attributes',
    `<w:p xmlns:w="${W}" w:a="x\r\ny\rz"><w:t>a\r\nb\rc</w:t>\r\n</w:p>`,
  ],
]

describe('mammoth read through saxes', () => {
  it('gives the tree xmldom gives for every XML part of the .docx fixtures', async () => {
    const namespaces = await officeNamespaces()
    const parts = xmlParts()
    expect(parts.length).toBeGreaterThan(20)
    let readBySaxes = 0
    for (const [label, xml] of parts) {
      const fast = parseWithSaxes(xml, namespaces)
      if (!fast) continue
      readBySaxes++
      expect(plain(fast), label).toEqual(plain(await xmldomReadString(xml, namespaces)))
    }
    expect(readBySaxes).toBe(parts.length)
  })

  it.each(edgeCases)('gives the tree xmldom gives: %s', async (_label, xml) => {
    const namespaces = await officeNamespaces()
    const fast = parseWithSaxes(xml, namespaces)
    expect(fast).toBeDefined()
    expect(plain(fast)).toEqual(plain(await xmldomReadString(xml, namespaces)))
  })

  it.each([
    ['U+2028 in the text', `<w:t xmlns:w="${W}">a\u2028b</w:t>`],
    ['U+0085 in an attribute', `<w:t xmlns:w="${W}" w:a="a\u0085b">c</w:t>`],
    ['an end tag with a space before its >', `<w:p xmlns:w="${W}"><w:r>1</w:r ></w:p>`],
    ['a name with two colons', `<w:p xmlns:w="${W}"><w:a:b/></w:p>`],
    ['a name with an empty local part', `<w:p xmlns:w="${W}"><w:/></w:p>`],
    ['a non-ASCII name', `<w:p xmlns:w="${W}"><w:ä/></w:p>`],
    ['an element in the xmlns namespace', '<xmlns:foo/>'],
    ['a DOCTYPE', `<!DOCTYPE w [<!ENTITY e "x">]><w:t xmlns:w="${W}">&e;</w:t>`],
    ['an undeclared prefix', '<w:t>a</w:t>'],
    ['a prefix declared empty', `<w:t xmlns:w="${W}" xmlns:q="">a</w:t>`],
    ['mismatched tags', `<w:p xmlns:w="${W}"><w:r></w:p>`],
    ['an unknown entity', `<w:t xmlns:w="${W}">&nbsp;</w:t>`],
    ['no root element', '<?xml version="1.0"?>'],
  ])('leaves %s to xmldom, whose verdict mammoth gets', async (_label, xml) => {
    const namespaces = await officeNamespaces()
    expect(parseWithSaxes(xml, namespaces)).toBeUndefined()
    const installed = mammothXml.readString
    installSaxesXmlReader()
    try {
      const ours = await Promise.resolve()
        .then(() => mammothXml.readString(xml, namespaces))
        .then(plain, (error: unknown) => ({ type: 'error', value: String(error) }))
      const theirs = await Promise.resolve()
        .then(() => xmldomReadString(xml, namespaces))
        .then(plain, (error: unknown) => ({ type: 'error', value: String(error) }))
      expect(ours).toEqual(theirs)
    } finally {
      mammothXml.readString = installed
    }
  })
})
