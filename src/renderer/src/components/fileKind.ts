/** A coarse kind for a file name, for its icon and label. */
export type FileKind =
  | 'document'
  | 'spreadsheet'
  | 'presentation'
  | 'pdf'
  | 'image'
  | 'text'
  | 'code'
  | 'archive'
  | 'other'

const byExtension: Record<string, FileKind> = {
  doc: 'document',
  docx: 'document',
  odt: 'document',
  rtf: 'document',
  xls: 'spreadsheet',
  xlsx: 'spreadsheet',
  xlsm: 'spreadsheet',
  ods: 'spreadsheet',
  csv: 'spreadsheet',
  tsv: 'spreadsheet',
  ppt: 'presentation',
  pptx: 'presentation',
  odp: 'presentation',
  pdf: 'pdf',
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  gif: 'image',
  webp: 'image',
  bmp: 'image',
  tif: 'image',
  tiff: 'image',
  svg: 'image',
  txt: 'text',
  md: 'text',
  markdown: 'text',
  html: 'text',
  htm: 'text',
  json: 'code',
  ipynb: 'code',
  js: 'code',
  ts: 'code',
  py: 'code',
  xml: 'code',
  yaml: 'code',
  yml: 'code',
  zip: 'archive',
  gz: 'archive',
  tar: 'archive',
  '7z': 'archive',
}

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.')
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : ''
}

export function fileKind(name: string): FileKind {
  return byExtension[extensionOf(name)] ?? 'other'
}

export const kindLabels: Record<FileKind, string> = {
  document: 'Document',
  spreadsheet: 'Spreadsheet',
  presentation: 'Presentation',
  pdf: 'PDF',
  image: 'Image',
  text: 'Text',
  code: 'Code',
  archive: 'Archive',
  other: 'File',
}
