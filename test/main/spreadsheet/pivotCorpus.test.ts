import { expect, it } from 'vitest'
import { describeNeeding } from '../../support/requirements'
import { pivotCorpusCases } from './pivotCorpus'
import { XLSX_CORPUS, xlsxCorpusFiles } from './xlsxCorpus'

// A few workbooks with charts, pivots, comments and validations; the whole corpus is in the soak tier.
const SAMPLE = ['pivot', 'chart', 'comment', 'validation', 'defined']

describeNeeding(
  [XLSX_CORPUS],
  'corpus workbooks with rich parts keep them after a pivot table is added',
  () => {
    const counted = { pivots: 0 }
    const files = xlsxCorpusFiles().filter((f) => SAMPLE.some((word) => f.toLowerCase().includes(word)))
    pivotCorpusCases(files.slice(0, 8), counted)
    it('some of them got a pivot table', () => {
      expect(files.length).toBeGreaterThan(2)
      expect(counted.pivots).toBeGreaterThan(0)
    })
  },
)
