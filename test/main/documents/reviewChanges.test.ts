import { describe, expect, it } from 'vitest'
import { decideChanges, trackedChanges } from '../../../src/main/documents/review/changes'
import { bodyParagraphs, reviewText } from '../../../src/main/documents/review/paragraphs'
import { replaceText, suggestEdit } from '../../../src/main/documents/review/textEdits'
import { openWord } from '../../../src/main/documents/review/wordXml'
import { bold, del, ins, para, reviewDocx, run } from './reviewFixture'

// The decisions Word offers beyond plain insertions and deletions: paragraph marks, formatting, rows,
// and a deletion made inside another author's insertion.
const texts = (doc: Document) => bodyParagraphs(doc).map(reviewText)

function open(body: string): Document {
  return openWord(reviewDocx(body), 'review.docx').doc
}

const deletedMark = (author: string) =>
  `<w:pPr><w:rPr><w:del w:id="20" w:author="${author}" w:date="2024-05-01T00:00:00Z"/></w:rPr></w:pPr>`
const formatChange =
  '<w:r><w:rPr><w:b/><w:rPrChange w:id="21" w:author="Bob" w:date="2024-05-01T00:00:00Z"><w:rPr><w:i/></w:rPr></w:rPrChange></w:rPr><w:t>styled</w:t></w:r>'
const insertedRow =
  '<w:tbl><w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid><w:tr><w:tc><w:p><w:r><w:t>kept row</w:t></w:r></w:p></w:tc></w:tr><w:tr><w:trPr><w:ins w:id="22" w:author="Bob" w:date="2024-05-01T00:00:00Z"/></w:trPr><w:tc><w:p><w:r><w:t>new row</w:t></w:r></w:p></w:tc></w:tr></w:tbl>'

describe('deciding tracked changes', () => {
  it('accepting a deleted paragraph mark joins the paragraph to the next one', () => {
    const doc = open(`<w:p>${deletedMark('Ann')}${run('First')}</w:p>${para(run(' second'))}`)
    expect(trackedChanges(doc).map((c) => c.kind)).toEqual(['paragraph mark deleted'])
    decideChanges(doc, {}, true)
    expect(texts(doc)).toEqual(['First second'])
  })

  it('rejecting a deleted paragraph mark keeps both paragraphs', () => {
    const doc = open(`<w:p>${deletedMark('Ann')}${run('First')}</w:p>${para(run('second'))}`)
    decideChanges(doc, { ids: ['20'] }, false)
    expect(texts(doc)).toEqual(['First', 'second'])
    expect(trackedChanges(doc)).toEqual([])
  })

  it('rejecting a formatting change puts the old properties back; accepting keeps the new', () => {
    const rejected = open(para(formatChange))
    decideChanges(rejected, { author: 'bob' }, false)
    const props = rejected.getElementsByTagName('w:rPr')[0]
    expect(props?.getElementsByTagName('w:i').length).toBe(1)
    expect(props?.getElementsByTagName('w:b').length).toBe(0)
    const accepted = open(para(formatChange))
    decideChanges(accepted, {}, true)
    expect(accepted.getElementsByTagName('w:b').length).toBe(1)
    expect(accepted.getElementsByTagName('w:rPrChange').length).toBe(0)
  })

  it('rejecting an inserted table row removes the row', () => {
    const doc = open(insertedRow)
    expect(trackedChanges(doc).map((c) => c.kind)).toEqual(['row inserted'])
    decideChanges(doc, {}, false)
    expect(texts(doc)).toEqual(['kept row'])
  })

  it('a deletion inside another author’s insertion: accepting both leaves neither', () => {
    const doc = open(para(run('Pay '), ins(5, 'Ann', 'promptly and '), run('in full.')))
    suggestEdit(doc, { find: 'promptly ', replace: '', author: 'Bob' })
    expect(texts(doc)).toEqual(['Pay {++{--promptly --}and ++}in full.'])
    const bob = trackedChanges(doc).find((c) => c.author === 'Bob')
    expect(bob?.kind).toBe('deletion')
    decideChanges(doc, {}, true)
    expect(texts(doc)).toEqual(['Pay and in full.'])
  })

  it('rejecting everything gives back the original text', () => {
    const doc = open(
      para(run('Net '), del(1, 'Ann', '30'), ins(2, 'Ann', '45'), run(' days, '), bold('firm'), run('.')),
    )
    suggestEdit(doc, { find: 'days, firm', replace: 'days', author: 'Bob' })
    replaceText(doc, { find: 'Net', replace: 'Net total' })
    expect(texts(doc)).toEqual(['Net total {--30--}{++45++} {--days, firm--}{++days++}.'])
    decideChanges(doc, {}, false)
    expect(texts(doc)).toEqual(['Net total 30 days, firm.'])
  })
})
