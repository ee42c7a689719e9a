import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { createConverter } from '../../../src/main/convert'

describe('pdf from a Node Buffer', () => {
  it('converts when the bytes arrive as a Buffer (as fs.readFile gives them)', async () => {
    const bytes = await readFile(new URL('../../../../shared/corpus/convert/test.pdf', import.meta.url))
    expect(Buffer.isBuffer(bytes)).toBe(true)
    const result = await createConverter().convert({ name: 'test.pdf', bytes })
    expect(result.markdown).toContain('While there is contemporaneous exploration of multi-agent approaches')
  })
})
