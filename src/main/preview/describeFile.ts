import { posix } from 'node:path'
import { AppError } from '../../shared/errors'
import { detectFileKind } from '../../shared/files'
import type { PreviewDescription } from '../../shared/ipc'

/** Text shown at most; a longer file shows its start and says it was cut. */
export const MAX_TEXT_CHARS = 2_000_000

export type PreviewKind =
  | 'sheet'
  | 'pdf'
  | 'image'
  | 'text'
  | 'docx'
  | 'html'
  | 'email'
  | 'calendar'
  | 'unsupported'

const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  bmp: 'image/bmp',
  webp: 'image/webp',
}

/** highlight.js language per extension; `markdown` is drawn as Markdown. */
const LANGUAGES: Record<string, string> = {
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.txt': 'plaintext',
  '.log': 'plaintext',
  '.csv': 'plaintext',
  '.tsv': 'plaintext',
  '.json': 'json',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.ts': 'typescript',
  '.py': 'python',
  '.sh': 'bash',
  '.yaml': 'yaml',
  '.yml': 'yaml',
  '.xml': 'xml',
  '.css': 'css',
  '.sql': 'sql',
  '.ini': 'ini',
  '.toml': 'ini',
}

export function kindOf(
  name: string,
  head: Uint8Array,
): { kind: PreviewKind; mimeType?: string; language?: string } {
  const ext = posix.extname(name).toLowerCase()
  const signature = detectFileKind(head)
  if (ext === '.xlsx' || ext === '.xlsm') return { kind: 'sheet' }
  if (ext === '.pdf' || signature === 'pdf') return { kind: 'pdf' }
  if (ext === '.docx') return { kind: 'docx' }
  if (ext === '.eml') return { kind: 'email' }
  if (ext === '.ics') return { kind: 'calendar' }
  if (ext === '.html' || ext === '.htm') return { kind: 'html' }
  // An SVG is drawn as a picture (<img> runs no script in it).
  if (ext === '.svg') return { kind: 'image', mimeType: 'image/svg+xml' }
  const image = signature ? IMAGE_TYPES[signature] : undefined
  if (image) return { kind: 'image', mimeType: image }
  const language = LANGUAGES[ext]
  if (language) return { kind: 'text', language }
  return { kind: 'unsupported' }
}

type Common = { path: string; name: string; size: number; version: string }

function decodeText(bytes: Uint8Array): { text: string; truncated: boolean } {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes)
  return text.length > MAX_TEXT_CHARS
    ? { text: text.slice(0, MAX_TEXT_CHARS), truncated: true }
    : { text, truncated: false }
}

export async function describeDocx(bytes: Uint8Array, common: Common): Promise<PreviewDescription> {
  const mammoth = (await import('mammoth')).default
  try {
    const result = await mammoth.convertToHtml({ buffer: Buffer.from(bytes) })
    const warnings = result.messages.filter((m) => m.type === 'warning').map((m) => m.message)
    return { kind: 'html', ...common, html: result.value, warnings: [...new Set(warnings)].slice(0, 20) }
  } catch {
    throw new AppError('VALIDATION_FAILED', `${common.name} is not a readable Word document.`)
  }
}

export async function describeEmail(bytes: Uint8Array, common: Common): Promise<PreviewDescription> {
  const { simpleParser } = await import('mailparser')
  const mail = await simpleParser(Buffer.from(bytes), { skipImageLinks: true })
  const addresses = (value: typeof mail.from | typeof mail.to) =>
    (Array.isArray(value) ? value : value ? [value] : []).map((a) => a.text).join(', ')
  const headers: { label: string; value: string }[] = []
  const add = (label: string, value: string | undefined) => {
    if (value) headers.push({ label, value })
  }
  add('From', addresses(mail.from))
  add('To', addresses(mail.to))
  add('Cc', addresses(mail.cc))
  add('Subject', mail.subject)
  add('Date', mail.date?.toISOString())
  return {
    kind: 'email',
    ...common,
    headers,
    text: mail.text ?? '',
    ...(typeof mail.html === 'string' && mail.html ? { html: mail.html } : {}),
    attachments: mail.attachments.map((a) => ({
      name: a.filename ?? 'attachment',
      size: a.size,
      mimeType: a.contentType,
    })),
  }
}

const MAX_EVENTS = 500

export async function describeCalendar(bytes: Uint8Array, common: Common): Promise<PreviewDescription> {
  const { icsOccurrences } = await import('../calendar')
  const text = new TextDecoder().decode(bytes)
  // Events of ten years around today; a recurring event shows its occurrences in that span.
  const now = Date.now()
  const year = 365 * 24 * 3600 * 1000
  let occurrences: Awaited<ReturnType<typeof icsOccurrences>>
  try {
    occurrences = await icsOccurrences(text, now - 5 * year, now + 5 * year, 'UTC')
  } catch (error) {
    throw new AppError(
      'VALIDATION_FAILED',
      `${common.name} is not a readable calendar: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    )
  }
  return {
    kind: 'calendar',
    ...common,
    events: occurrences.slice(0, MAX_EVENTS).map(({ view }) => ({
      summary: view.summary,
      start: view.start.local,
      end: view.end.local,
      allDay: view.all_day,
      ...(view.location ? { location: view.location } : {}),
      ...(view.description ? { description: view.description } : {}),
    })),
  }
}

export function describeText(bytes: Uint8Array, common: Common, language: string): PreviewDescription {
  return { kind: 'text', ...common, language, ...decodeText(bytes) }
}

export function describeHtml(bytes: Uint8Array, common: Common): PreviewDescription {
  return { kind: 'html', ...common, html: decodeText(bytes).text, warnings: [] }
}
