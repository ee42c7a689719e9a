import { describe, expect, it } from 'vitest'
import { contentTypeOf } from '../../../src/main/platform'

describe('contentTypeOf', () => {
  it("answers from Hono's table with the office formats added, loaded at the first lookup", () => {
    expect(contentTypeOf('report.docx')).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    )
    expect(contentTypeOf('notes.md')).toBe('text/markdown; charset=utf-8')
    expect(contentTypeOf('photo.PNG')).toBe('image/png')
    expect(contentTypeOf('page.html')).toMatch(/^text\/html/)
    expect(contentTypeOf('data.unknown-extension')).toBe('application/octet-stream')
  })
})
