import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { type Requirement, thirdPartyDir } from '../../support/requirements'

/** Real-world workbooks (exceljs's and XlsxWriter's test files) in the third-party folder. */
export const XLSX_CORPUS: Requirement = { thirdParty: join('corpus', 'xlsx') }

/** The folder holding `exceljs/` and `xlsxwriter/` (it may be absent: check XLSX_CORPUS first). */
export const xlsxCorpusDir = join(thirdPartyDir(), 'corpus', 'xlsx')

/** `exceljs/<name>` and `xlsxwriter/<name>` for every workbook that passes `keep`; none where absent. */
export function xlsxCorpusFiles(
  keep: (name: string) => boolean = (name) => name.endsWith('.xlsx'),
): string[] {
  return ['exceljs', 'xlsxwriter'].flatMap((folder) => {
    const dir = join(xlsxCorpusDir, folder)
    if (!existsSync(dir)) return []
    return readdirSync(dir)
      .filter(keep)
      .sort()
      .map((name) => `${folder}/${name}`)
  })
}
