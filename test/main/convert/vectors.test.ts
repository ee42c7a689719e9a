import { afterAll, describe, expect } from 'vitest'
import { createConverter } from '../../../src/main/convert'
import { describeNeeding } from '../../support/requirements'
import { itFast as it, itSoak } from '../../support/tier'
import { CORPUS, core, corpus, type DocumentSet, type Vector } from './corpus'

const converter = createConverter()
afterAll(() => converter.dispose())

// Archives with an image member run OCR on it; that takes seconds on two cores.
const slow = new Set(['test_files.zip', 'scan.jpg'])
// The corpus archive's OCR (the slowest vector by far) runs in the soak tier; npm test keeps an OCR run of the
// project's own picture (scan.jpg) and the corpus's other vectors.
const soakOnly = new Set([`${corpus.dir}/test_files.zip`])

function check(vector: Vector, markdown: string): void {
  for (const wanted of vector.must_include)
    expect(markdown, `${vector.filename} should include ${wanted}`).toContain(wanted)
  for (const unwanted of vector.must_not_include) {
    expect(markdown, `${vector.filename} should not include ${unwanted}`).not.toContain(unwanted)
  }
}

function vectorSuites(set: DocumentSet): void {
  describe('general', () => {
    for (const vector of set.vectors.general) {
      const inTier = soakOnly.has(`${set.dir}/${vector.filename}`) ? itSoak : it
      inTier(
        vector.filename,
        async () => {
          const result = await converter.convert({ name: vector.filename, bytes: set.file(vector.filename) })
          check(vector, result.markdown)
        },
        slow.has(vector.filename) ? 300_000 : 60_000,
      )
    }
  })

  describe('data URIs kept', () => {
    for (const vector of set.vectors.data_uri) {
      it(vector.filename, async () => {
        const result = await converter.convert(
          { name: vector.filename, bytes: set.file(vector.filename) },
          { keepDataUris: true },
        )
        check(vector, result.markdown)
      })
    }
  })
}

describe('the project documents (test/fixtures/core)', () => {
  it('has a vector for every format', () => {
    expect(core.vectors.general.length).toBeGreaterThanOrEqual(14)
    expect(core.vectors.data_uri.length).toBeGreaterThanOrEqual(2)
  })
  vectorSuites(core)
})

describeNeeding([CORPUS], 'corpus vectors (markitdown test files)', () => {
  it('has its vectors', () => {
    expect(corpus.vectors.general.length).toBeGreaterThan(10)
  })
  vectorSuites(corpus)
})

describe('formats reported', () => {
  it.each([
    ['report.docx', 'docx'],
    ['sheet.xlsx', 'xlsx'],
    ['sheet.xls', 'xls'],
    ['deck.pptx', 'pptx'],
    ['report.pdf', 'pdf'],
    ['blog.html', 'html'],
    ['kanji.csv', 'csv'],
    ['notes.json', 'json'],
    ['notebook.ipynb', 'ipynb'],
    ['feed.xml', 'feed'],
    ['book.epub', 'epub'],
    ['bundle.zip', 'zip'],
    ['photo.jpg', 'image'],
  ])('%s is %s', async (name, format) => {
    const result = await converter.convert({ name, bytes: core.file(name) })
    expect(result.format).toBe(format)
  })
})
