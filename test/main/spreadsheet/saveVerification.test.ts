import { strFromU8, strToU8 } from 'fflate'
import { describe, expect, it } from 'vitest'
import { writePackage } from '../../../src/main/spreadsheet/ooxml/packageParts'
import { zipMismatch } from '../../../src/main/spreadsheet/ooxml/verifyPackage'
import { writeWorkbookParts } from '../../../src/main/spreadsheet/ooxml/writeWorkbookParts'
import { createWorkbook } from '../../../src/main/spreadsheet/workbook/loadWorkbook'
import { checkReopens } from '../../../src/main/spreadsheet/workbook/reopenCheck'
import { saveWorkbook } from '../../../src/main/spreadsheet/workbook/saveWorkbook'

async function mergedSheet() {
  const open = await createWorkbook('/v.xlsx', 'S')
  const ws = open.workbook.worksheets[0]!
  for (let r = 1; r <= 200; r++) ws.getRow(r).values = [r, `t${r}`, r / 3]
  ws.mergeCells('E1:F2')
  return { open, parts: await writeWorkbookParts(open.workbook) }
}

describe('save verification', () => {
  it('reopens the package: a well-formed part exceljs cannot read after the cell rows is refused', async () => {
    const { parts } = await mergedSheet()
    await expect(checkReopens('/v.xlsx', parts)).resolves.toBeUndefined()
    const sheet = strFromU8(parts['xl/worksheets/sheet1.xml']!)
    parts['xl/worksheets/sheet1.xml'] = strToU8(
      sheet.replace('<mergeCell ref="E1:F2"/>', '<mergeCell ref="E1:F2"/><mergeCell ref="F2:G3"/>'),
    )
    await expect(checkReopens('/v.xlsx', parts)).rejects.toThrow(
      'Save of /v.xlsx stopped, the result would not be a valid workbook: it does not reopen (/v.xlsx is not a readable .xlsx workbook: Cannot merge already merged cells.',
    )
  })

  it('reads the zip back: the bytes must give exactly the verified parts', async () => {
    const { parts } = await mergedSheet()
    const zip = await writePackage(parts)
    expect(zipMismatch(zip, parts)).toBeUndefined()
    const changed = { ...parts, 'xl/styles.xml': strToU8(`${strFromU8(parts['xl/styles.xml']!)} `) }
    expect(zipMismatch(zip, changed)).toBe('xl/styles.xml')
    expect(zipMismatch(zip, { ...parts, 'extra.xml': strToU8('<a/>') })).toBe('the part list differs')
    const broken = zip.slice()
    broken.fill(0, 200, 400)
    expect(zipMismatch(broken, parts)).toBeDefined()
  })

  it('says reopened for every save, whatever the size', async () => {
    const { open } = await mergedSheet()
    open.changed()
    const report = await saveWorkbook(open, '/v.xlsx', async () => ({}))
    expect(report.verified).toBe('reopened')
    expect(report.bytes).toBeGreaterThan(1000)
  })
})
