import { describe, expect, it } from 'vitest'
import { isIndexable } from '../../../src/main/knowledge/indexer/indexable'

describe('isIndexable', () => {
  it('reads every document format the converter reads, by any of its extensions', () => {
    for (const name of ['a.docx', 'b.DOCM', 'c.pdf', 'd.xlsm', 'e.tab', 'f.pptm', 'g.htm', 'h.md', 'i.epub'])
      expect(isIndexable(`/docs/${name}`, false), name).toBe(true)
  })

  it('leaves out data, logs, unknown types and extension-less names', () => {
    for (const name of ['package.json', 'server.log', 'feed.xml', 'tool.exe', 'README', '.md'])
      expect(isIndexable(`/docs/${name}`, false), name).toBe(false)
  })

  it('reads pictures only when OCR for the index is on', () => {
    expect(isIndexable('/scan.png', false)).toBe(false)
    expect(isIndexable('/scan.png', true)).toBe(true)
  })

  it('looks at the file name, not at a dot in a folder name', () => {
    expect(isIndexable('/v1.docx/notes', false)).toBe(false)
  })
})
