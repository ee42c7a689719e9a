import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createConverter } from '../../../src/main/convert'
import { withLyingSizes } from '../../support/damagedZip'
import { fixturePath } from '../../support/fixtures'

describe('a docx whose zip sizes lie', () => {
  // One byte too small: inflated into a buffer of the declared size, each member would come back cut
  // short by a byte yet the right length; only its CRC shows it, and nothing may be converted from it.
  it.each([
    ['too big', 1],
    ['too small', -1],
  ])('converting a docx whose sizes are one byte %s says it is damaged and what to do', async (_, by) => {
    const converter = createConverter({ ocr: false })
    try {
      const bytes = withLyingSizes(readFileSync(fixturePath('core', 'memo.docx')), by)
      await expect(converter.convert({ name: 'report.docx', bytes })).rejects.toThrow(
        'Cannot convert "report.docx": the docx file is damaged: its zip data does not unpack to what it declares. Re-save it from the program that made it, or use an undamaged copy',
      )
    } finally {
      await converter.dispose()
    }
  })
})
