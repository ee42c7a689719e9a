import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import * as Docx from 'docx'
import { images } from 'mammoth'
import { writer as htmlWriter } from 'mammoth/lib/writers/html-writer.js'
import { describe, expect, it } from 'vitest'
import { openDocx } from '../../../../src/main/convert/docx/docxPackage'
import { treeWriter, Unsupported } from '../../../../src/main/convert/docx/markdown/buildTree'
import { documentMarkdown } from '../../../../src/main/convert/docx/markdown/documentMarkdown'
import { descendants, elementChildren } from '../../../../src/main/convert/docx/markdown/lightDom'
import { runMammoth } from '../../../../src/main/convert/docx/runMammoth'
import { htmlMarkdown } from '../../../../src/main/convert/docx/viaHtml'
import { convertDocx } from '../../../../src/main/convert/formats/docx'
import { docxFixtures } from '../corpus'
import { type Call, randomDocument, replay } from './mammothCalls'

// mammoth's HTML written as Markdown from a light tree (docx/markdown/) must give what the HTML gives
// through domino and turndown (viaHtml.ts), byte for byte; what the tree cannot be sure of, it leaves.

type Outcome = { kind: 'fast'; markdown: unknown; expected: unknown } | { kind: 'left' }

function compare(calls: Call[]): Outcome {
  const writer = treeWriter()
  replay(calls, writer)
  const output = writer.asString()
  const reference = htmlWriter({})
  replay(calls, reference)
  expect(output.html()).toBe(reference.asString())
  if (!output.document) return { kind: 'left' }
  try {
    return {
      kind: 'fast',
      markdown: documentMarkdown(output.document),
      expected: htmlMarkdown(output.html()),
    }
  } catch (error) {
    if (error instanceof Unsupported) return { kind: 'left' }
    throw error
  }
}

const html = (calls: Call[]) => {
  const writer = htmlWriter({})
  replay(calls, writer)
  return writer.asString()
}

const open = (tag: string, attributes: Record<string, string> = {}): Call => ['open', tag, attributes]
const close = (tag: string): Call => ['close', tag]
const text = (value: string): Call => ['text', value]

describe('the light tree', () => {
  it('writes what the DOM path writes, on 600 random documents', () => {
    const fast: string[] = []
    for (let seed = 1; seed <= 600; seed++) {
      const outcome = compare(randomDocument(seed))
      if (outcome.kind === 'left') continue
      expect(outcome.markdown, `seed ${seed}`).toEqual(outcome.expected)
      fast.push((outcome.markdown as { markdown: string }).markdown)
    }
    expect(fast.length).toBeGreaterThan(400)
    // The documents hold what the rules are about: tables, lists, emphasis, links, notes, escapes.
    for (const mark of [
      '| --- |',
      '\n* ',
      '1. ',
      '**',
      '~~',
      '](',
      '[^1]',
      '## Comments',
      '[comment ',
      '\\*',
      '<br>',
      '![',
      '[x] ',
    ])
      expect(fast.filter((markdown) => markdown.includes(mark)).length, mark).toBeGreaterThan(5)
  })

  it('leaves what an HTML parser would reshape, and agrees on whatever it keeps', () => {
    let kept = 0
    let left = 0
    for (let seed = 1; seed <= 300; seed++) {
      const outcome = compare(randomDocument(seed, { chaos: true }))
      if (outcome.kind === 'left') left++
      else {
        kept++
        expect(outcome.markdown, `seed ${seed}`).toEqual(outcome.expected)
      }
    }
    expect(kept).toBeGreaterThan(20)
    expect(left).toBeGreaterThan(100)
  })

  it.each<[string, Call[]]>([
    ['a paragraph in a paragraph', [open('p'), open('p'), close('p'), close('p')]],
    ['a list in a paragraph', [open('p'), open('ul'), open('li'), close('li'), close('ul'), close('p')]],
    [
      'a link in a link',
      [open('a', { href: 'x' }), text('a'), open('a', { id: 'b' }), close('a'), close('a')],
    ],
    [
      'a list item in a list item',
      [open('li'), open('strong'), open('li'), close('li'), close('strong'), close('li')],
    ],
    ['a heading in a heading', [open('h1'), open('h2'), close('h2'), close('h1')]],
    ['a term in a definition', [open('dl'), open('dd'), open('em'), open('dt'), close('dt'), close('em')]],
    ['text between rows', [open('table'), text(' '), open('tr'), close('tr'), close('table')]],
    ['a link between cells', [open('table'), open('tr'), open('a'), close('a'), close('tr'), close('table')]],
    ['a cell outside a table', [open('p'), open('td'), close('td'), close('p')]],
    ['a header section after rows', [open('table'), open('tr'), close('tr'), open('thead'), close('thead')]],
    ['a carriage return', [open('p'), text('a\r\nb'), close('p')]],
    ['a NUL', [open('p'), text('a\0b'), close('p')]],
    ['a NUL in an attribute', [open('a', { href: 'a\0' }), close('a')]],
    ['an unknown tag', [open('div'), close('div')]],
    ['an unknown attribute', [open('p', { style: 'x' }), close('p')]],
    ['a void element with content', [open('br'), text('x'), close('br')]],
  ])('leaves %s to the DOM path', (_name, calls) => {
    const writer = treeWriter()
    replay(calls, writer)
    const output = writer.asString()
    expect(output.document).toBeUndefined()
    expect(output.html()).toBe(html(calls))
  })

  it('puts rows written straight into a table in a tbody, as the parser does', () => {
    const writer = treeWriter()
    replay(
      [
        open('table'),
        open('tr'),
        open('td'),
        text('1'),
        close('td'),
        close('tr'),
        open('tr'),
        close('tr'),
        close('table'),
      ],
      writer,
    )
    const document = writer.asString().document
    expect(document).toBeDefined()
    const [table] = descendants(document!, (element) => element.name === 'TABLE')
    expect(table?.parent?.name).toBe('BODY')
    expect(elementChildren(table!).map((child) => child.name)).toEqual(['TBODY'])
    expect(elementChildren(elementChildren(table!)[0]!).map((row) => row.name)).toEqual(['TR', 'TR'])
  })
})

const styleMap = [
  "p[style-name='Title'] => h1:fresh",
  "p[style-name='Subtitle'] => h2:fresh",
  'comment-reference => sup',
]
const convertImage = images.imgElement(async () => ({ src: 'data:image/png;base64...' }))
const mammothOf = async (bytes: Uint8Array) => runMammoth(await openDocx(bytes), { styleMap, convertImage })

describe('Word documents', () => {
  it.each(docxFixtures('the light tree').map((path) => [basename(path), path]))(
    '%s takes the light tree',
    async (_name, path) => {
      const output = await mammothOf(new Uint8Array(readFileSync(path)))
      expect(output.document).toBeDefined()
      const markdown = documentMarkdown(output.document!)
      expect(markdown).toEqual(htmlMarkdown(output.html()))
      expect(markdown.markdown.length).toBeGreaterThan(100)
    },
  )

  it('a note reference inside a link goes through the DOM path, with the same Markdown', async () => {
    // mammoth writes the reference's own link inside the outer one; the HTML parser closes the outer link there.
    const document = new Docx.Document({
      footnotes: { 1: { children: [new Docx.Paragraph('The note.')] } },
      sections: [
        {
          children: [
            new Docx.Paragraph({
              children: [
                new Docx.ExternalHyperlink({
                  link: 'https://example.org',
                  children: [
                    new Docx.TextRun('before'),
                    new Docx.FootnoteReferenceRun(1),
                    new Docx.TextRun(' after'),
                  ],
                }),
              ],
            }),
          ],
        },
      ],
    })
    const bytes = new Uint8Array(await Docx.Packer.toBuffer(document))
    const output = await mammothOf(bytes)
    expect(output.document).toBeUndefined()
    const converted = await convertDocx({
      bytes,
      name: 'link.docx',
      keepDataUris: false,
      signal: new AbortController().signal,
    } as Parameters<typeof convertDocx>[0])
    expect(converted).toEqual(htmlMarkdown(output.html()))
    expect(converted.markdown).toBe('[before](https://example.org)[^1] after\n\n[^1]: The note.')
  })
})
