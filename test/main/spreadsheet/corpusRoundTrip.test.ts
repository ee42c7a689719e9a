import { createHash } from 'node:crypto'
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { readPackage } from '../../../src/main/spreadsheet/ooxml/packageParts'
import { findMalformedPart, structuralProblems } from '../../../src/main/spreadsheet/ooxml/verifyPackage'
import { loadWorkbook } from '../../../src/main/spreadsheet/workbook/loadWorkbook'
import { saveWorkbook } from '../../../src/main/spreadsheet/workbook/saveWorkbook'
import { isAppError } from '../../../src/shared/errors'
import { describeNeeding } from '../../support/requirements'
import { packageFeatures } from './packageCompare'
import { xlsxCorpusDir as corpus, XLSX_CORPUS, xlsxCorpusFiles } from './xlsxCorpus'

const files = xlsxCorpusFiles()
const invalid = new Set(['exceljs/invalid-xml.xlsx', 'exceljs/missing-bits.xlsx'])
const tmp = mkdtempSync(path.join(tmpdir(), 'bureau-xlsx-rt-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

describeNeeding([XLSX_CORPUS], 'corpus round trip: open, change one cell, save', () => {
  it('covers the whole corpus', () => {
    expect(files.length).toBeGreaterThanOrEqual(60)
  })

  for (const file of files.filter((f) => !invalid.has(f))) {
    it(file, async () => {
      const source = readFileSync(path.join(corpus, file))
      const open = await loadWorkbook(`/${path.basename(file)}`, source)
      const ws = open.workbook.worksheets[0]!
      const col = ws.columnCount + 2
      ws.getCell(1, col).value = 'changed'
      open.changed(ws, { top: 1, left: col, bottom: 1, right: col })
      let written: Uint8Array | undefined
      await saveWorkbook(open, '/out.xlsx', async (_p, bytes) => {
        written = bytes
        return {}
      })
      const before = readPackage(source)
      const after = readPackage(written!)
      expect(findMalformedPart(after)).toBeUndefined()
      expect(structuralProblems(after)).toEqual([])
      const want = packageFeatures(before)
      const got = packageFeatures(after)
      expect(got).toEqual(want)
      const reopened = await loadWorkbook('/out.xlsx', written!)
      expect(reopened.workbook.worksheets[0]!.getCell(1, col).value).toBe('changed')
    })
  }
})

describeNeeding([XLSX_CORPUS], 'invalid corpus files', () => {
  for (const file of invalid) {
    it(`${file} gives a clear error and stays untouched`, async () => {
      const copy = path.join(tmp, path.basename(file))
      copyFileSync(path.join(corpus, file), copy)
      const before = sha(readFileSync(copy))
      const error = await loadWorkbook(`/${path.basename(file)}`, readFileSync(copy)).catch((e: unknown) => e)
      expect(isAppError(error)).toBe(true)
      expect((error as Error).message).toMatch(
        new RegExp(
          `^/${path.basename(file)} is not a readable \\.xlsx workbook: .+\\. The file was left untouched\\.$`,
        ),
      )
      expect((error as Error).message).not.toContain(tmp)
      expect(sha(readFileSync(copy))).toBe(before)
    })
  }
})

describe('a file that is not a workbook', () => {
  it('a file that is not a zip is refused with a clear error', async () => {
    const bogus = path.join(tmp, 'notes.xlsx')
    writeFileSync(bogus, 'just text')
    await expect(loadWorkbook('/notes.xlsx', readFileSync(bogus))).rejects.toThrow(
      '/notes.xlsx is not a readable .xlsx workbook: it is not a zip package',
    )
  })
})
