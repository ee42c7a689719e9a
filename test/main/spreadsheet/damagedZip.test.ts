import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { withLyingSizes } from '../../support/damagedZip'
import { fixturePath } from '../../support/fixtures'
import { createHarness, type Harness } from './harness'

describe('a zip whose sizes lie', () => {
  let h: Harness
  beforeEach(async () => {
    h = await createHarness()
  })
  afterEach(async () => h.cleanup())

  it('spreadsheet open names the file and what to do, not JSZip\'s "Bug : uncompressed data size mismatch"', async () => {
    const bytes = withLyingSizes(readFileSync(fixturePath('core', 'sheet.xlsx')))
    writeFileSync(path.join(h.root, 'bad.xlsx'), bytes)
    const error = await h.fail('open', { path: '/bad.xlsx' })
    expect(error).not.toContain('Bug')
    expect(error).toContain(
      '/bad.xlsx is not a readable .xlsx workbook: its zip data is damaged (a part does not unpack to what it declares). Restore an earlier version',
    )
    expect(readFileSync(path.join(h.root, 'bad.xlsx'))).toEqual(Buffer.from(bytes))
  })
})
