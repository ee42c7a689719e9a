import { getMimeType, mimes } from 'hono/utils/mime'

const OFFICE = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  xls: 'application/vnd.ms-excel',
  md: 'text/markdown; charset=utf-8',
}

/** The content type a file is served with, from its name (office formats added to Hono's table). */
export function contentTypeOf(filename: string): string {
  return getMimeType(filename, { ...mimes, ...OFFICE }) ?? 'application/octet-stream'
}
