import { createDocument } from '@mixmark-io/domino'

/** Parses HTML into a standalone DOM (domino, the parser turndown itself uses in Node). */
export function parseHtml(html: string): Document {
  return createDocument(html, true)
}
