import { mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { strFromU8 } from 'fflate'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { readPackage } from '../../../src/main/spreadsheet/ooxml/packageParts'
import { describeNeeding } from '../../support/requirements'
import { describeWhen, tier } from '../../support/tier'
import { createHarness, type Harness } from './harness'
import { convert } from './libreOffice'

// One workbook through hyperlinks, conditional formats, fill_series, fill_down, convert_types and
// find_replace, opened by LibreOffice in one run. Starting LibreOffice takes seconds: the soak tier runs
// it; npm test checks each method's parts with openpyxl and its own read-back.

const P = '/features.xlsx'
const at = { path: P, sheet: 'Data' }
let h: Harness
let content = ''

describeWhen(tier === 'soak', describeNeeding)(
  ['soffice'],
  'LibreOffice opens what the sheet feature methods write',
  () => {
    beforeAll(async () => {
      h = await createHarness()
      await h.call('create', at)
      await h.call('set_range', {
        ...at,
        start: 'A1',
        values: [
          ['Name', 'Sales', 'Note', 'Amount', 'Step', 'Double'],
          ['Ann', 120, 'late order', "'1,200", 10, '=B2*2'],
          ['Bob', 80, 'ok', "'3,400", null, null],
          ['Cid', 300, 'late', "'56", null, null],
        ],
      })
      await h.call('set_hyperlink', { ...at, cell: 'A6', url: 'https://example.com/q3', text: 'Report' })
      await h.call('set_hyperlink', { ...at, cell: 'A7', location: 'Data!B3', text: 'Bob sales' })
      for (const rule of [
        { range: 'B2:B4', rule: 'formula', formula: '=$B2>100' },
        { range: 'B2:B4', rule: 'data_bar', color: '#5B9BD5' },
        { range: 'C2:C4', rule: 'text_contains', text: 'late' },
      ])
        await h.call('add_conditional_format', { ...at, ...rule })
      await h.call('fill_series', { ...at, range: 'E2:E4', step: 5 })
      await h.call('fill_down', { ...at, range: 'F2:F4' })
      await h.call('convert_types', { ...at, range: 'D2:D4', to: 'number' })
      await h.call('find_replace', { path: P, find: 'late', replace: 'LATE' })
      await h.call('save', { path: P })
      const out = path.join(h.root, 'lo')
      mkdirSync(out)
      await convert(path.join(h.root, 'features.xlsx'), 'ods', out)
      content = strFromU8(readPackage(readFileSync(path.join(out, 'features.ods')))['content.xml']!)
    }, 180_000)
    afterAll(async () => h?.cleanup())

    it('keeps the web link', () => {
      expect(content).toMatch(/<text:a [^>]*xlink:href="https:\/\/example\.com\/q3"[^>]*>Report<\/text:a>/)
    })

    it('keeps the link to a cell of the workbook as a jump inside the document', () => {
      expect(content).toMatch(/<text:a [^>]*xlink:href="#Data\.B3"[^>]*>Bob sales<\/text:a>/)
    })

    it('keeps the conditional formats', () => {
      expect(content).toContain('calcext:conditional-formats')
      expect(content).toMatch(/calcext:data-bar/)
      expect(content.match(/<calcext:conditional-format /g)).toHaveLength(3)
      expect(content).toContain('calcext:value="contains-text(&quot;late&quot;)"')
    })

    it('reads the values the methods wrote: series, filled formulas, converted numbers, replaced text', () => {
      for (const v of ['10', '15', '20'])
        expect(content).toContain(`office:value-type="float" office:value="${v}"`)
      expect(content).toMatch(/table:formula="of:=\[\.B4\]\*2" office:value-type="float" office:value="600"/)
      for (const v of ['1200', '3400', '56'])
        expect(content).toMatch(new RegExp(`office:value-type="float" office:value="${v}"`))
      expect(content).toContain('<text:p>LATE order</text:p>')
      expect(content).toContain('<text:p>LATE</text:p>')
    })
  },
)
