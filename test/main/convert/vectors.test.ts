import { afterAll, describe, expect, it } from 'vitest'
import { createConverter } from '../../../src/main/convert'
import { corpusFile, type Vector, vectors } from './corpus'

const converter = createConverter()
afterAll(() => converter.dispose())

// Archives with an image member run OCR on it; that takes seconds on two cores.
const slow = new Set(['test_files.zip'])

function check(vector: Vector, markdown: string): void {
  for (const wanted of vector.must_include)
    expect(markdown, `${vector.filename} should include ${wanted}`).toContain(wanted)
  for (const unwanted of vector.must_not_include) {
    expect(markdown, `${vector.filename} should not include ${unwanted}`).not.toContain(unwanted)
  }
}

describe('corpus vectors (general)', () => {
  for (const vector of vectors.general) {
    it(
      vector.filename,
      async () => {
        const result = await converter.convert({ name: vector.filename, bytes: corpusFile(vector.filename) })
        check(vector, result.markdown)
      },
      slow.has(vector.filename) ? 180_000 : 60_000,
    )
  }
})

describe('corpus vectors (data URIs kept)', () => {
  for (const vector of vectors.data_uri) {
    it(vector.filename, async () => {
      const result = await converter.convert(
        { name: vector.filename, bytes: corpusFile(vector.filename) },
        { keepDataUris: true },
      )
      check(vector, result.markdown)
    })
  }
})

describe('formats reported', () => {
  it.each([
    ['test.docx', 'docx'],
    ['test.xlsx', 'xlsx'],
    ['test.xls', 'xls'],
    ['test.pptx', 'pptx'],
    ['test.pdf', 'pdf'],
    ['test_blog.html', 'html'],
    ['test_mskanji.csv', 'csv'],
    ['test.json', 'json'],
    ['test_notebook.ipynb', 'ipynb'],
    ['test_rss.xml', 'feed'],
    ['test.epub', 'epub'],
  ])('%s is %s', async (name, format) => {
    const result = await converter.convert({ name, bytes: corpusFile(name) })
    expect(result.format).toBe(format)
  })
})
