import { extensionsByFormat } from '../extensions'
import type { ConvertFormat } from '../types'

const NOTES: Record<ConvertFormat, string> = {
  docx: 'Word: headings, lists, tables, links, footnotes, comments, equations as LaTeX',
  pdf: 'text in reading order with headings, lists, tables and <!-- Page n --> markers; scanned pages read as images',
  xlsx: 'one section per sheet with the formatted cell values (the spreadsheet toolset edits workbooks)',
  xls: 'legacy Excel, read like xlsx',
  csv: 'a table; the text encoding is detected',
  tsv: 'a table; the text encoding is detected',
  pptx: 'one section per slide: text in reading order, tables, chart values, alt text, speaker notes',
  html: 'the main content with links and tables; navigation and boilerplate dropped',
  text: 'as is',
  markdown: 'as is',
  json: 'pretty-printed',
  ipynb: 'Jupyter notebook: cells and text outputs',
  feed: 'RSS or Atom: one section per item',
  epub: 'e-book: chapters in order',
  zip: 'each member converted in turn (nested archives up to 3 deep)',
  image:
    'text recognised offline (OCR), or transcribed by the vision model when the user allowed it in Settings',
}

/** What `convert formats` answers: every readable format, its file extensions and what comes out. */
export function formatList() {
  const extensions = extensionsByFormat()
  return (Object.keys(NOTES) as ConvertFormat[]).map((format) => ({
    format,
    extensions: extensions.get(format) ?? [],
    note: NOTES[format],
  }))
}
