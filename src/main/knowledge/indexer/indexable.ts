const DOCUMENTS = new Set([
  'docx',
  'pdf',
  'xlsx',
  'xls',
  'csv',
  'tsv',
  'pptx',
  'html',
  'htm',
  'xhtml',
  'md',
  'markdown',
  'txt',
  'text',
  'epub',
  'ipynb',
  'rss',
  'atom',
  'zip',
])
const IMAGES = new Set(['png', 'jpg', 'jpeg', 'gif', 'bmp', 'tif', 'tiff', 'webp'])

/** Whether a workspace file is one the index reads (images only when OCR for the index is on). */
export function isIndexable(path: string, images: boolean): boolean {
  const dot = path.lastIndexOf('.')
  if (dot < 0 || dot < path.lastIndexOf('/')) return false
  const extension = path.slice(dot + 1).toLowerCase()
  return DOCUMENTS.has(extension) || (images && IMAGES.has(extension))
}
