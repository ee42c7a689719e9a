import { readFileSync } from 'node:fs'
import path from 'node:path'
import { strFromU8, strToU8, zipSync } from 'fflate'
import { describe, expect } from 'vitest'
import {
  type Parts,
  readPackage,
  readRels,
  relKind,
  workbookSheets,
} from '../../../src/main/spreadsheet/ooxml/packageParts'
import { structuralProblems } from '../../../src/main/spreadsheet/ooxml/verifyPackage'
import { loadWorkbook } from '../../../src/main/spreadsheet/workbook/loadWorkbook'
import { saveWorkbook } from '../../../src/main/spreadsheet/workbook/saveWorkbook'
import { itNeeding } from '../../support/itNeeding'
import { XLSX_CORPUS, xlsxCorpusDir } from './xlsxCorpus'

// The corpus has no pivot tables and no extLst (x14) validations or formats: this test adds them to a
// corpus workbook by hand, the way Excel writes them, and checks the save carries them through.
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'

const EXT_LST = `<extLst><ext uri="{CCE6A557-97BC-4b89-ADB6-D9C93CAAB3DF}" xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main"><x14:dataValidations count="1" xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main"><x14:dataValidation type="list" allowBlank="1"><x14:formula1><xm:f>Lists!$A$1:$A$3</xm:f></x14:formula1><xm:sqref>C2:C9</xm:sqref></x14:dataValidation></x14:dataValidations></ext><ext uri="{78C0D931-6437-407d-A8EE-F0AAD7539E65}" xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main"><x14:conditionalFormattings><x14:conditionalFormatting xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main"><x14:cfRule type="dataBar" id="{00000000-000E-0000-0000-000001000000}"><x14:dataBar minLength="0" maxLength="100"><x14:cfvo type="autoMin"/><x14:cfvo type="autoMax"/></x14:dataBar></x14:cfRule><xm:sqref>D2:D9</xm:sqref></x14:conditionalFormatting></x14:conditionalFormattings></ext></extLst>`

function withPivotAndExtLst(source: Uint8Array): Uint8Array {
  const parts: Parts = readPackage(source)
  const text = (n: string) => strFromU8(parts[n]!)
  const set = (n: string, s: string) => {
    parts[n] = strToU8(s)
  }
  set(
    'xl/worksheets/sheet1.xml',
    text('xl/worksheets/sheet1.xml').replace('</worksheet>', `${EXT_LST}</worksheet>`),
  )
  set(
    'xl/pivotCache/pivotCacheDefinition1.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<pivotCacheDefinition xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${REL}" r:id="rId1" recordCount="0"><cacheSource type="worksheet"><worksheetSource ref="A1:B2" sheet="Sheet1"/></cacheSource><cacheFields count="0"/></pivotCacheDefinition>`,
  )
  set(
    'xl/pivotCache/pivotCacheRecords1.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<pivotCacheRecords xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="0"/>`,
  )
  set(
    'xl/pivotCache/_rels/pivotCacheDefinition1.xml.rels',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/pivotCacheRecords" Target="pivotCacheRecords1.xml"/></Relationships>`,
  )
  set(
    'xl/pivotTables/pivotTable1.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<pivotTableDefinition xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" name="PivotTable1" cacheId="7" dataCaption="Values"><location ref="F1:G3" firstHeaderRow="1" firstDataRow="1" firstDataCol="1"/></pivotTableDefinition>`,
  )
  set(
    'xl/pivotTables/_rels/pivotTable1.xml.rels',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/pivotCacheDefinition" Target="../pivotCache/pivotCacheDefinition1.xml"/></Relationships>`,
  )
  const sheetRels = 'xl/worksheets/_rels/sheet1.xml.rels'
  const pivotRel = `<Relationship Id="rId90" Type="${REL}/pivotTable" Target="../pivotTables/pivotTable1.xml"/>`
  set(
    sheetRels,
    parts[sheetRels]
      ? text(sheetRels).replace('</Relationships>', `${pivotRel}</Relationships>`)
      : `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${pivotRel}</Relationships>`,
  )
  set(
    'xl/_rels/workbook.xml.rels',
    text('xl/_rels/workbook.xml.rels').replace(
      '</Relationships>',
      `<Relationship Id="rId91" Type="${REL}/pivotCacheDefinition" Target="pivotCache/pivotCacheDefinition1.xml"/></Relationships>`,
    ),
  )
  set(
    'xl/workbook.xml',
    text('xl/workbook.xml').replace(
      /(<calcPr[^>]*\/>)/,
      `$1<pivotCaches><pivotCache cacheId="7" r:id="rId91"/></pivotCaches>`,
    ),
  )
  const ct = 'application/vnd.openxmlformats-officedocument.spreadsheetml'
  set(
    '[Content_Types].xml',
    text('[Content_Types].xml').replace(
      '</Types>',
      `<Override PartName="/xl/pivotCache/pivotCacheDefinition1.xml" ContentType="${ct}.pivotCacheDefinition+xml"/><Override PartName="/xl/pivotCache/pivotCacheRecords1.xml" ContentType="${ct}.pivotCacheRecords+xml"/><Override PartName="/xl/pivotTables/pivotTable1.xml" ContentType="${ct}.pivotTable+xml"/></Types>`,
    ),
  )
  expect(structuralProblems(parts)).toEqual([])
  return zipSync(parts)
}

describe('carry-through of parts the corpus lacks', () => {
  itNeeding(
    [XLSX_CORPUS],
    'keeps pivot tables (table, cache, records, workbook cache list) and worksheet extLst validations and formats',
    async () => {
      const source = withPivotAndExtLst(
        readFileSync(path.join(xlsxCorpusDir, 'xlsxwriter/data_validation01.xlsx')),
      )
      expect(strFromU8(readPackage(source)['xl/workbook.xml']!)).toContain('<pivotCaches>')
      const open = await loadWorkbook('/p.xlsx', source)
      open.workbook.worksheets[0]!.getCell('A1').value = 'changed'
      open.changed(open.workbook.worksheets[0], { top: 1, left: 1, bottom: 1, right: 1 })
      let bytes: Uint8Array | undefined
      const report = await saveWorkbook(open, '/p.xlsx', async (_p, b) => {
        bytes = b
        return {}
      })
      expect(report.carried).toEqual(
        expect.arrayContaining(['Sheet1: pivotTable', 'Sheet1: extLst', 'workbook: pivotCaches']),
      )
      const parts = readPackage(bytes!)
      expect(structuralProblems(parts)).toEqual([])
      const sheet = workbookSheets(parts)[0]!
      const pivot = readRels(parts, sheet.part).find((r) => relKind(r.type) === 'pivotTable')
      expect(strFromU8(parts[pivot!.part!]!)).toContain('name="PivotTable1"')
      const cache = readRels(parts, pivot!.part!).find((r) => relKind(r.type) === 'pivotCacheDefinition')!
        .part!
      expect(readRels(parts, cache).map((r) => relKind(r.type))).toEqual(['pivotCacheRecords'])
      const workbook = strFromU8(parts['xl/workbook.xml']!)
      const cacheRel = /<pivotCache cacheId="7" r:id="([^"]+)"\/>/.exec(workbook)?.[1]
      expect(readRels(parts, 'xl/workbook.xml').find((r) => r.id === cacheRel)?.part).toBe(cache)
      const sheetXml = strFromU8(parts[sheet.part]!)
      expect(sheetXml).toContain('<xm:f>Lists!$A$1:$A$3</xm:f></x14:formula1><xm:sqref>C2:C9</xm:sqref>')
      expect(sheetXml).toContain('<x14:dataBar minLength="0" maxLength="100">')
      expect(sheetXml.indexOf('<extLst>')).toBeGreaterThan(sheetXml.indexOf('</sheetData>'))
      expect(sheetXml.trimEnd().endsWith('</extLst></worksheet>')).toBe(true)
      // And it opens again.
      await loadWorkbook('/p.xlsx', bytes!)
    },
  )
})
