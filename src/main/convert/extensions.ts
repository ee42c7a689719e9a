import type { ConvertFormat } from './types'

// File extensions and the formats they stand for (kept apart from detection, which reads zips, so
// that the CLI can start the right converters before it has loaded anything else).

export const byExtension: Record<string, ConvertFormat> = {
  docx: 'docx',
  docm: 'docx',
  pdf: 'pdf',
  xlsx: 'xlsx',
  xlsm: 'xlsx',
  xls: 'xls',
  csv: 'csv',
  tsv: 'tsv',
  tab: 'tsv',
  pptx: 'pptx',
  pptm: 'pptx',
  html: 'html',
  htm: 'html',
  xhtml: 'html',
  txt: 'text',
  text: 'text',
  log: 'text',
  md: 'markdown',
  markdown: 'markdown',
  json: 'json',
  ipynb: 'ipynb',
  rss: 'feed',
  atom: 'feed',
  xml: 'text',
  epub: 'epub',
  zip: 'zip',
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  webp: 'image',
  tif: 'image',
  tiff: 'image',
  bmp: 'image',
  gif: 'image',
}

/** The file extensions recognised for each format (content decides; the extension breaks ties). */
export function extensionsByFormat(): Map<ConvertFormat, string[]> {
  const out = new Map<ConvertFormat, string[]>()
  for (const [extension, format] of Object.entries(byExtension))
    out.set(format, [...(out.get(format) ?? []), extension])
  return out
}

/** The format a file extension stands for, if the converter reads it. */
export function formatOfExtension(extension: string): ConvertFormat | undefined {
  return Object.hasOwn(byExtension, extension) ? byExtension[extension] : undefined
}

export function extensionOf(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? name
  const dot = base.lastIndexOf('.')
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : ''
}
