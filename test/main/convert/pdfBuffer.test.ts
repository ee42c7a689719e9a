import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { createConverter } from '../../../src/main/convert'
import { fixturePath } from '../../support/fixtures'

describe('pdf from a Node Buffer', () => {
  it('converts when the bytes arrive as a Buffer (as fs.readFile gives them)', async () => {
    const bytes = await readFile(fixturePath('core', 'report.pdf'))
    expect(Buffer.isBuffer(bytes)).toBe(true)
    const result = await createConverter().convert({ name: 'test.pdf', bytes })
    expect(result.markdown).toContain('Reference token osprey-9208-cobalt')
  })
})
