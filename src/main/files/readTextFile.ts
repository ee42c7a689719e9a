import path from 'node:path'
import { AppError } from '../../shared/errors'
import type { Workspace } from '../workspace'

export const MAX_TEXT_FILE_BYTES = 20 * 1024 * 1024

// Formats that are not plain text; the agent gets them as text through the convert toolset.
const CONVERTIBLE = new Set(
  'docx doc odt rtf pdf xlsx xlsm xls ods pptx ppt odp epub png jpg jpeg gif webp bmp tif tiff heic zip'.split(
    ' ',
  ),
)

export interface TextSlice {
  path: string
  content: string
  start_line: number
  end_line: number
  total_lines: number
  truncated: boolean
  next_start_line?: number
}

export interface ReadRequest {
  path: string
  start_line?: number
  end_line?: number
  max_chars: number
}

/** Reads a text file, or a range of its lines, capped at `max_chars`; other formats point to `convert`. */
export async function readTextFile(workspace: Workspace, request: ReadRequest): Promise<TextSlice> {
  const extension = path.extname(request.path).slice(1).toLowerCase()
  if (CONVERTIBLE.has(extension)) {
    throw new AppError(
      'UNSUPPORTED',
      `${request.path} is a .${extension} file, not plain text; read it with convert to_markdown instead.`,
    )
  }
  const bytes = await workspace.readFile(request.path, { maxBytes: MAX_TEXT_FILE_BYTES })
  const lines = splitLines(decodeText(bytes, request.path))
  const total = lines.length
  const start = request.start_line ?? 1
  const end = Math.min(request.end_line ?? total, total)
  if (total > 0 && start > total) {
    throw new AppError(
      'VALIDATION_FAILED',
      `${request.path} has ${total} lines; start_line ${start} is past the end.`,
    )
  }
  if (end < start && total > 0) {
    throw new AppError('VALIDATION_FAILED', `end_line (${end}) is before start_line (${start}).`)
  }
  return sliceLines(request.path, lines, start, end, request.max_chars)
}

function sliceLines(
  agentPath: string,
  lines: string[],
  start: number,
  end: number,
  maxChars: number,
): TextSlice {
  const taken: string[] = []
  let used = 0
  let last = start - 1
  for (let index = start - 1; index < end; index++) {
    const line = lines[index]!
    const cost = line.length + (taken.length > 0 ? 1 : 0)
    if (used + cost > maxChars) {
      if (taken.length === 0) taken.push(line.slice(0, maxChars))
      break
    }
    taken.push(line)
    used += cost
    last = index + 1
  }
  const truncated = last < end
  const shownEnd = Math.max(last, taken.length > 0 ? start : start - 1)
  return {
    path: agentPath,
    content: taken.join('\n'),
    start_line: start,
    end_line: shownEnd,
    total_lines: lines.length,
    truncated,
    ...(truncated ? { next_start_line: Math.max(last + 1, start + 1) } : {}),
  }
}

function splitLines(text: string): string[] {
  if (text === '') return []
  const lines = text.split(/\r\n|\r|\n/)
  if (lines.at(-1) === '') lines.pop()
  return lines
}

function decodeText(bytes: Buffer, agentPath: string): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2))
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2))
  const head = bytes.subarray(0, 8192)
  if (head.includes(0)) {
    throw new AppError(
      'UNSUPPORTED',
      `${agentPath} is a binary file, not text; if it is a document, read it with convert to_markdown.`,
    )
  }
  return new TextDecoder('utf-8', { ignoreBOM: false }).decode(bytes)
}
