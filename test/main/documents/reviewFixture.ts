import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate'

// A small Word package written by hand, so a test controls exactly how runs are split and who made which
// tracked change: what Word itself writes for a reviewed contract.

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main'
const W14 = 'http://schemas.microsoft.com/office/word/2010/wordml'
const W15 = 'http://schemas.microsoft.com/office/word/2012/wordml'
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
const MC = 'http://schemas.openxmlformats.org/markup-compatibility/2006'

export const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

export function run(text: string, props = ''): string {
  return `<w:r>${props ? `<w:rPr>${props}</w:rPr>` : ''}<w:t xml:space="preserve">${esc(text)}</w:t></w:r>`
}
export const bold = (text: string) => run(text, '<w:b/>')
export const italic = (text: string) => run(text, '<w:i/>')
export const para = (...runs: string[]) => `<w:p>${runs.join('')}</w:p>`

export function ins(id: number, author: string, text: string, date = '2024-05-01T10:00:00Z'): string {
  return `<w:ins w:id="${id}" w:author="${esc(author)}" w:date="${date}">${run(text)}</w:ins>`
}
export function del(id: number, author: string, text: string, date = '2024-05-02T10:00:00Z'): string {
  return `<w:del w:id="${id}" w:author="${esc(author)}" w:date="${date}"><w:r><w:delText xml:space="preserve">${esc(text)}</w:delText></w:r></w:del>`
}

export interface FixtureComment {
  id: number
  author: string
  text: string
  paraId?: string
  parentParaId?: string
  done?: boolean
}

export function reviewDocx(body: string, comments: FixtureComment[] = []): Uint8Array {
  const files: Record<string, Uint8Array> = {}
  const overrides = [
    '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>',
  ]
  const rels: string[] = []
  if (comments.length > 0) {
    overrides.push(
      '<Override PartName="/word/comments.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml"/>',
      '<Override PartName="/word/commentsExtended.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.commentsExtended+xml"/>',
    )
    rels.push(
      `<Relationship Id="rIdC1" Type="${R}/comments" Target="comments.xml"/>`,
      '<Relationship Id="rIdC2" Type="http://schemas.microsoft.com/office/2011/relationships/commentsExtended" Target="commentsExtended.xml"/>',
    )
    files['word/comments.xml'] = strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:comments xmlns:w="${W}" xmlns:w14="${W14}" xmlns:mc="${MC}" mc:Ignorable="w14">${comments
        .map(
          (c) =>
            `<w:comment w:id="${c.id}" w:author="${esc(c.author)}" w:date="2024-05-03T09:00:00Z" w:initials="${c.author[0]}"><w:p${c.paraId ? ` w14:paraId="${c.paraId}"` : ''}><w:r><w:annotationRef/></w:r>${run(c.text)}</w:p></w:comment>`,
        )
        .join('')}</w:comments>`,
    )
    files['word/commentsExtended.xml'] = strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w15:commentsEx xmlns:w15="${W15}" xmlns:mc="${MC}" mc:Ignorable="w15">${comments
        .filter((c) => c.paraId)
        .map(
          (c) =>
            `<w15:commentEx w15:paraId="${c.paraId}"${c.parentParaId ? ` w15:paraIdParent="${c.parentParaId}"` : ''} w15:done="${c.done ? 1 : 0}"/>`,
        )
        .join('')}</w15:commentsEx>`,
    )
  }
  files['[Content_Types].xml'] = strToU8(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${overrides.join('')}</Types>`,
  )
  files['_rels/.rels'] = strToU8(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${R}/officeDocument" Target="word/document.xml"/></Relationships>`,
  )
  files['word/_rels/document.xml.rels'] = strToU8(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels.join('')}</Relationships>`,
  )
  files['word/document.xml'] = strToU8(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W}" xmlns:r="${R}" xmlns:w14="${W14}" xmlns:mc="${MC}" mc:Ignorable="w14"><w:body>${body}<w:sectPr><w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:body></w:document>`,
  )
  return zipSync(files)
}

/** A contract reviewed by two people: Alice's and Bob's tracked changes, a comment thread, a bold word split in two runs. */
export function reviewedContract(): Uint8Array {
  return reviewDocx(
    [
      para(
        run('The '),
        bold('Sup'),
        bold('plier'),
        run(' shall deliver within '),
        del(1, 'Alice', '30'),
        ins(2, 'Alice', '45'),
        run(' days.'),
      ),
      para(
        run('Payment is due '),
        '<w:commentRangeStart w:id="7"/>',
        run('on receipt'),
        '<w:commentRangeEnd w:id="7"/>',
        '<w:r><w:commentReference w:id="7"/></w:r>',
        run(' of the '),
        ins(3, 'Bob', 'correct '),
        run('invoice.'),
      ),
      para(run('Acme Ltd is the '), italic('Cus'), italic('tomer'), run('.'), del(4, 'Bob', ' Really.')),
    ].join(''),
    [
      { id: 7, author: 'Carol', text: 'Too short?', paraId: '1A2B3C4D' },
      {
        id: 8,
        author: 'Dan',
        text: 'No, standard.',
        paraId: '1A2B3C4E',
        parentParaId: '1A2B3C4D',
        done: false,
      },
    ],
  )
}

const sdt = (tag: string, props: string, content: string) =>
  `<w:sdt><w:sdtPr><w:alias w:val="${tag}"/><w:tag w:val="${tag}"/>${props}</w:sdtPr><w:sdtContent>${content}</w:sdtContent></w:sdt>`
const cell = (...paragraphs: string[]) =>
  `<w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/></w:tcPr>${paragraphs.join('')}</w:tc>`

/**
 * An offer letter template: placeholders (one split over three runs, one bold), content controls (text,
 * date, check box) and an item table whose second row repeats per item.
 */
export function offerTemplate(): Uint8Array {
  return reviewDocx(
    [
      para(run('Dear '), run('{{na'), run('me'), run('}},')),
      para(run('Your start date is '), bold('{{start}}'), run('.')),
      para(
        run('Manager: '),
        sdt(
          'manager',
          '<w:showingPlcHdr/>',
          run('Click to enter a name', '<w:rStyle w:val="PlaceholderText"/>'),
        ),
      ),
      para(
        run('Signed on: '),
        sdt('signed', '<w:date><w:dateFormat w:val="yyyy-MM-dd"/></w:date>', run('Pick a date')),
      ),
      para(
        sdt(
          'remote',
          '<w14:checkbox><w14:checked w14:val="0"/><w14:checkedState w14:val="2612"/><w14:uncheckedState w14:val="2610"/></w14:checkbox>',
          run('\u2610'),
        ),
        run(' Remote work'),
      ),
      '<w:tbl><w:tblPr><w:tblW w:w="6000" w:type="dxa"/></w:tblPr><w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/></w:tblGrid>',
      `<w:tr>${cell(para(bold('Item')))}${cell(para(bold('Qty')))}</w:tr>`,
      `<w:tr>${cell(para(run('{{items.'), run('what}}')))}${cell(para(italic('{{items.qty}}')))}</w:tr>`,
      '</w:tbl>',
      para(run('Regards')),
    ].join(''),
  )
}

/** The document with a header and a footer (their paragraphs given as XML), referenced from its section. */
export function withHeaderFooter(docx: Uint8Array, header: string, footer: string): Uint8Array {
  const files = unzipSync(docx)
  const part = (root: 'hdr' | 'ftr', body: string) =>
    strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:${root} xmlns:w="${W}" xmlns:r="${R}">${body}</w:${root}>`,
    )
  files['word/header1.xml'] = part('hdr', header)
  files['word/footer1.xml'] = part('ftr', footer)
  const edit = (name: string, change: (xml: string) => string) => {
    files[name] = strToU8(change(strFromU8(files[name] as Uint8Array)))
  }
  edit('[Content_Types].xml', (xml) =>
    xml.replace(
      '</Types>',
      '<Override PartName="/word/header1.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"/><Override PartName="/word/footer1.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footer+xml"/></Types>',
    ),
  )
  edit('word/_rels/document.xml.rels', (xml) =>
    xml.replace(
      '</Relationships>',
      `<Relationship Id="rIdH1" Type="${R}/header" Target="header1.xml"/><Relationship Id="rIdF1" Type="${R}/footer" Target="footer1.xml"/></Relationships>`,
    ),
  )
  edit('word/document.xml', (xml) =>
    xml.replace(
      '<w:sectPr>',
      '<w:sectPr><w:headerReference w:type="default" r:id="rIdH1"/><w:footerReference w:type="default" r:id="rIdF1"/>',
    ),
  )
  return zipSync(files)
}
