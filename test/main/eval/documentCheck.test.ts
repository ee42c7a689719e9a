import { copyFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createConverter } from '../../../src/main/convert'
import { Check, runChecks } from '../../../src/main/eval/checks'
import { markdownTables } from '../../../src/main/eval/checks/documentChecks'
import { fixturePath } from '../../support/fixtures'
import { tempDirs } from '../../support/tempDir'

const dirs = tempDirs('bureau-eval-document-')
afterAll(() => dirs.cleanup())
const reader = createConverter({ ocr: false })

async function check(root: string, raw: unknown) {
  return runChecks([Check.parse(raw)], { root, answer: '', submissions: [], reader })
}

describe('the document check', () => {
  it('reads GFM tables without the separator row, cells trimmed, escaped pipes kept', () => {
    expect(
      markdownTables('text\n\n| **A** | B |\n| --- | ---: |\n| 1 | x \\| y |\n\nmore\n| C |\n|---|\n'),
    ).toEqual([
      [
        ['**A**', 'B'],
        ['1', 'x \\| y'],
      ],
      [['C']],
    ])
  })

  it('a file that is not of its extension’s format fails, and so does a missing one', async () => {
    const root = await dirs.make()
    await copyFile(fixturePath('core', 'report.pdf'), join(root, 'report.docx'))
    expect(await check(root, { type: 'document', path: '/report.docx' })).toEqual({
      ok: false,
      reason: '/report.docx is not a DOCX file',
    })
    expect((await check(root, { type: 'document', path: '/none.pdf' })).reason).toBe(
      '/none.pdf does not exist',
    )
    await writeFile(join(root, 'plain.pdf'), 'just text')
    expect((await check(root, { type: 'document', path: '/plain.pdf' })).reason).toBe(
      '/plain.pdf is not a PDF file',
    )
  })
})
