import Papa from 'papaparse'
import { FormatProblem } from '../errors'
import { renderSheet } from '../table/renderSheet'
import { shapeTable } from '../table/shapeGrid'
import { decodeText } from '../text/decodeText'
import type { ConvertContext, FormatOutput } from '../types'

/** CSV/TSV in any common encoding to one Markdown table, header detected, large files summarised. */
export async function convertCsv(context: ConvertContext): Promise<FormatOutput> {
  const { text, encoding } = decodeText(context.bytes)
  if (encoding !== 'utf-8') context.warn(`decoded as ${encoding}`)
  const parsed = Papa.parse<string[]>(text, {
    delimiter: context.format === 'tsv' ? '\t' : '',
    skipEmptyLines: 'greedy',
  })
  const rows = parsed.data.filter((row): row is string[] => Array.isArray(row))
  if (rows.length === 0) {
    if (text.trim()) throw new FormatProblem('damaged', 'no rows could be read from the file')
    return { markdown: '' }
  }
  const quoteProblems = parsed.errors.filter((error) => error.type === 'Quotes')
  if (quoteProblems.length > 0) context.warn(`${quoteProblems.length} rows have unbalanced quotes`)
  const sheet = renderSheet(shapeTable(rows), context.maxChars)
  return { markdown: sheet.markdown, truncated: sheet.summarised }
}
