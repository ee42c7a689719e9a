import { createRequire } from 'node:module'

type Mime = typeof import('hono/utils/mime')

const OFFICE = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  xls: 'application/vnd.ms-excel',
  md: 'text/markdown; charset=utf-8',
}

let mime: Mime | undefined

/**
 * Hono's table, loaded at the first lookup: every command imports this service (the data and cache
 * folders), and resolving and loading the table was ~10 ms of each start, before `bureau convert`
 * could start its worker.
 */
function mimeTable(): Mime {
  mime ??= createRequire(import.meta.url)('hono/utils/mime') as Mime
  return mime
}

/** The content type a file is served with, from its name (office formats added to Hono's table). */
export function contentTypeOf(filename: string): string {
  const { getMimeType, mimes } = mimeTable()
  return getMimeType(filename, { ...mimes, ...OFFICE }) ?? 'application/octet-stream'
}
