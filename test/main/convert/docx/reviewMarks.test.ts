import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { createConverter } from '../../../../src/main/convert'
import {
  del,
  ins,
  para,
  reviewDocx,
  reviewedContract,
  run,
  withHeaderFooter,
} from '../../documents/reviewFixture'

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main'

/** A document whose header, footer and one footnote hold tracked changes by Alice and Bob. */
function reviewedStories(): Uint8Array {
  const files = unzipSync(
    withHeaderFooter(
      reviewDocx(para(run('Body text'), '<w:r><w:footnoteReference w:id="1"/></w:r>', run('.'))),
      para(run('Draft '), del(11, 'Alice', 'v1'), ins(12, 'Alice', 'v2')),
      para(run('Page footer '), ins(21, 'Bob', '2024')),
    ),
  )
  files['word/footnotes.xml'] = strToU8(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:footnotes xmlns:w="${W}"><w:footnote w:id="1">${para(run('See the '), del(31, 'Bob', 'old'), ins(32, 'Bob', 'new'), run(' annex.'))}</w:footnote></w:footnotes>`,
  )
  const edit = (name: string, from: string, to: string) => {
    files[name] = strToU8(strFromU8(files[name] as Uint8Array).replace(from, to))
  }
  edit(
    '[Content_Types].xml',
    '</Types>',
    '<Override PartName="/word/footnotes.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"/></Types>',
  )
  edit(
    'word/_rels/document.xml.rels',
    '</Relationships>',
    '<Relationship Id="rIdN1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes" Target="footnotes.xml"/></Relationships>',
  )
  return zipSync(files)
}

describe('Word review marks in the Markdown', () => {
  const converter = createConverter({ ocr: false })
  const convert = (acceptedText: boolean) =>
    converter.convert({ name: 'contract.docx', bytes: reviewedContract() }, { noCache: true, acceptedText })

  it('shows tracked changes with author and date, comment anchors and threads', async () => {
    const { markdown } = await convert(false)
    expect(markdown).toContain(
      'The **Supplier** shall deliver within {--30--}[#1 Alice 2024-05-02]{++45++}[#2 Alice 2024-05-01] days.',
    )
    expect(markdown).toContain(
      'Payment is due {==on receipt==}[c7] of the {++correct ++}[#3 Bob 2024-05-01]invoice.',
    )
    expect(markdown).toContain('*Customer*.{-- Really.--}[#4 Bob 2024-05-02]')
    expect(markdown).toMatch(
      /## Comments\n\n- \[c7\] Carol 2024-05-03: Too short\?\n {2}- \[c8\] Dan 2024-05-03: No, standard\./,
    )
    expect(markdown).not.toContain('\u27e6')
  })

  it('gives the accepted text only when asked', async () => {
    const { markdown } = await convert(true)
    expect(markdown).toContain('The **Supplier** shall deliver within 45 days.')
    expect(markdown).toContain('Payment is due on receipt of the correct invoice.')
    expect(markdown).not.toMatch(/\{\+\+|\{--|\{==|Comments|Really|\b30\b/)
  })

  it('shows the tracked changes of headers, footers and footnotes, and leaves them out of the accepted text', async () => {
    const bytes = reviewedStories()
    const marked = (await converter.convert({ name: 'stories.docx', bytes }, { noCache: true })).markdown
    expect(marked).toMatch(
      /## Headers and footers\n\n- header1: Draft \{--v1--\}\[#11 Alice 2024-05-02\]\{\+\+v2\+\+\}\[#12 Alice 2024-05-01\]\n- footer1: Page footer \{\+\+2024\+\+\}\[#21 Bob 2024-05-01\]/,
    )
    expect(marked).toContain('See the {--old--}[#31 Bob 2024-05-02]{++new++}[#32 Bob 2024-05-01] annex.')
    expect(marked).not.toContain('\u27e6')
    const accepted = (
      await converter.convert({ name: 'stories.docx', bytes }, { noCache: true, acceptedText: true })
    ).markdown
    expect(accepted).toContain('See the new annex.')
    expect(accepted).not.toMatch(/Headers and footers|\{\+\+|\{--/)
  })
})
