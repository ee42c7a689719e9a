import { extensionOf, formatOfExtension } from '../../convert'

/**
 * Formats the converter reads that are not documents a person searches: data and logs that
 * would flood the index with machine text.
 */
const NOT_DOCUMENTS = new Set(['json'])
const NOT_DOCUMENT_EXTENSIONS = new Set(['log', 'xml'])

/** Whether a workspace file is one the index reads (images only when OCR for the index is on). */
export function isIndexable(path: string, images: boolean): boolean {
  const extension = extensionOf(path)
  if (NOT_DOCUMENT_EXTENSIONS.has(extension)) return false
  const format = formatOfExtension(extension)
  if (format === undefined || NOT_DOCUMENTS.has(format)) return false
  return format !== 'image' || images
}
