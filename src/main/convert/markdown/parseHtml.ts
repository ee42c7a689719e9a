import { createRequire } from 'node:module'

interface Domino {
  createDocument(html?: string, force?: boolean): Document
}

let domino: Domino | undefined

/** Parses HTML into a standalone DOM (domino, the parser turndown itself uses in Node). */
export function parseHtml(html: string): Document {
  // domino ships a d.ts that is not a module, so it is loaded untyped and given the one method we use.
  domino ??= createRequire(import.meta.url)('@mixmark-io/domino') as Domino
  return domino.createDocument(html, true)
}
