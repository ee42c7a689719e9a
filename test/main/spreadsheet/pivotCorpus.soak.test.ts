import { expect, it } from 'vitest'
import { describeNeeding } from '../../support/requirements'
import { pivotCorpusCases } from './pivotCorpus'
import { XLSX_CORPUS, xlsxCorpusFiles } from './xlsxCorpus'

describeNeeding([XLSX_CORPUS], 'corpus workbooks keep everything after a pivot table is added', () => {
  const counted = { pivots: 0 }
  pivotCorpusCases(xlsxCorpusFiles(), counted)
  it('most of the corpus got a pivot table', () => {
    expect(counted.pivots).toBeGreaterThanOrEqual(15)
  })
})
