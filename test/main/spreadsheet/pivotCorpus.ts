import { readFileSync } from 'node:fs'
import path from 'node:path'
import { expect, it } from 'vitest'
import { areaName } from '../../../src/main/spreadsheet/cells/address'
import { usedArea } from '../../../src/main/spreadsheet/cells/usedRange'
import { readPackage } from '../../../src/main/spreadsheet/ooxml/packageParts'
import { findMalformedPart, structuralProblems } from '../../../src/main/spreadsheet/ooxml/verifyPackage'
import { createPivotTable } from '../../../src/main/spreadsheet/pivot/pivotTables'
import { loadWorkbook } from '../../../src/main/spreadsheet/workbook/loadWorkbook'
import { saveWorkbook } from '../../../src/main/spreadsheet/workbook/saveWorkbook'
import { packageFeatures } from './packageCompare'
import { xlsxCorpusDir as corpus } from './xlsxCorpus'

const INVALID = new Set(['exceljs/invalid-xml.xlsx', 'exceljs/missing-bits.xlsx'])

/**
 * For each corpus workbook: a pivot table of its first sheet with a header row, on a new sheet, saved;
 * everything the workbook had is still there, plus the sheet and the pivot.
 */
export function pivotCorpusCases(files: string[], counted: { pivots: number }): void {
  for (const file of files.filter((f) => !INVALID.has(f))) {
    it(file, async () => {
      const source = readFileSync(path.join(corpus, file))
      const open = await loadWorkbook(`/${path.basename(file)}`, source)
      let made = false
      for (const ws of open.workbook.worksheets) {
        const used = usedArea(ws)
        if (!used || used.bottom <= used.top) continue
        const header = ws.getCell(used.top, used.left).value
        if (typeof header !== 'string' || header.trim() === '') continue
        try {
          createPivotTable(
            open,
            {
              source: `'${ws.name.replace(/'/g, "''")}'!${areaName({ ...used, right: used.left })}`,
              rows: [header.trim()],
              columns: [],
              values: [{ field: header.trim(), summary: 'count', name: 'Entries' }],
              filters: [],
            },
            { sheet: 'BureauPivot', cell: 'A1' },
          )
          made = true
          break
        } catch (error) {
          if (!/is empty|no data rows|no values|needs a header/.test(String(error))) throw error
        }
      }
      let written: Uint8Array | undefined
      await saveWorkbook(open, '/out.xlsx', async (_p, bytes) => {
        written = bytes
        return {}
      })
      const before = packageFeatures(readPackage(source))
      const after = readPackage(written!)
      expect(findMalformedPart(after)).toBeUndefined()
      expect(structuralProblems(after)).toEqual([])
      const got = packageFeatures(after)
      if (made) {
        counted.pivots++
        expect(got).toEqual({
          ...before,
          sheets: [...before.sheets, 'BureauPivot'],
          pivotTables: before.pivotTables + 1,
        })
      } else expect(got).toEqual(before)
      const reopened = await loadWorkbook('/out.xlsx', written!)
      expect(reopened.workbook.worksheets.map((w) => w.name).includes('BureauPivot')).toBe(made)
    })
  }
}
