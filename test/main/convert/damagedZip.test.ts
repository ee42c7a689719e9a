import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createConverter } from '../../../src/main/convert'
import { withLyingSizes } from '../../support/damagedZip'
import { fixturePath } from '../../support/fixtures'

describe('a docx whose zip sizes lie', () => {
  it('converting a docx says it is damaged and what to do', async () => {
    const converter = createConverter({ ocr: false })
    try {
      const bytes = withLyingSizes(readFileSync(fixturePath('convert', 'test.docx')))
      await expect(converter.convert({ name: 'report.docx', bytes })).rejects.toThrow(
        'Cannot convert "report.docx": the docx file is damaged: its zip data does not unpack to what it declares. Re-save it from the program that made it, or use an undamaged copy',
      )
    } finally {
      await converter.dispose()
    }
  })
})
