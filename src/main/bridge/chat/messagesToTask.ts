import type { HistoryTurn } from '../../agent'
import { bridgeErrors } from '../errors'
import type { ChatMessageInput, ContentPart } from './requestSchema'
import { decodeStrictBase64 } from './strictBase64'

/** A file a message refers to: an uploaded file's id, or inline bytes (data URL / base64). */
export type FileRef =
  | { kind: 'id'; fileId: string; param: string }
  | { kind: 'inline'; filename: string; mimeType?: string; bytes: Uint8Array }

export interface Task {
  /** The last user message's text, after the caller's system/developer instructions. */
  prompt: string
  /** Earlier user and assistant turns. */
  history: HistoryTurn[]
  /** Files of every user message, in order; the same uploaded file only once. */
  files: FileRef[]
}

const DATA_URL = /^data:([^;,]*)((?:;[^;,]*)*?),(.*)$/s

function decodeInline(value: string, param: string): { bytes: Uint8Array; mimeType?: string } {
  const match = DATA_URL.exec(value)
  let bytes: Uint8Array
  let mimeType: string | undefined
  if (match) {
    const [, type, params = '', data = ''] = match
    mimeType = type || undefined
    if (params.includes(';base64')) bytes = base64(data, param)
    else
      try {
        bytes = Buffer.from(decodeURIComponent(data), 'utf8')
      } catch {
        throw bridgeErrors.invalid('The data: URL is not valid: its percent-encoding is broken.', param)
      }
  } else bytes = base64(value, param)
  if (bytes.byteLength === 0)
    throw bridgeErrors.invalid('The file is empty: the data: URL or base64 holds no bytes.', param)
  return { bytes, ...(mimeType ? { mimeType } : {}) }
}

function base64(text: string, param: string): Uint8Array {
  const decoded = decodeStrictBase64(text)
  if ('error' in decoded)
    throw bridgeErrors.invalid(
      `The file is not valid base64: it ${decoded.error}. Send a data: URL (data:<type>;base64,<data>) or plain base64.`,
      param,
    )
  return decoded.bytes
}

const IMAGE_EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
}

function partFile(part: ContentPart, param: string, index: number): FileRef {
  if (part.type === 'file' && 'file' in part) {
    const { file_id, file_data, filename } = part.file as {
      file_id?: string
      file_data?: string
      filename?: string
    }
    if (file_id) return { kind: 'id', fileId: file_id, param: `${param}.file.file_id` }
    if (file_data) {
      const inline = decodeInline(file_data, `${param}.file.file_data`)
      return { kind: 'inline', filename: filename ?? `file-${index + 1}`, ...inline }
    }
    throw bridgeErrors.invalid(
      'A file content part needs file.file_id (from POST /v1/files) or file.file_data.',
      param,
    )
  }
  const url = (part as { image_url: { url: string } }).image_url.url
  if (!url.startsWith('data:'))
    throw bridgeErrors.invalid(
      'Image URLs are not fetched. Upload the image to /v1/files and send a file part, or send a data: URL.',
      `${param}.image_url.url`,
    )
  const inline = decodeInline(url, `${param}.image_url.url`)
  const extension = IMAGE_EXTENSIONS[inline.mimeType ?? ''] ?? 'img'
  return { kind: 'inline', filename: `image-${index + 1}.${extension}`, ...inline }
}

/** Text of a message; files of user messages go to `files`. */
function readContent(message: ChatMessageInput, param: string, files: FileRef[]): string {
  const { content } = message
  if (content == null) return ''
  if (typeof content === 'string') return content
  const texts: string[] = []
  content.forEach((part, index) => {
    const partParam = `${param}.content.[${index}]`
    if (part.type === 'text' && 'text' in part) texts.push(String(part.text))
    else if (part.type === 'refusal' && message.role === 'assistant' && 'refusal' in part)
      texts.push(String(part.refusal))
    else if ((part.type === 'file' || part.type === 'image_url') && message.role === 'user')
      files.push(partFile(part, partParam, files.length))
    else
      throw bridgeErrors.invalid(
        `Content parts of type "${part.type.slice(0, 40)}" are not supported in ${message.role} messages; use text, file or image_url (data: URL).`,
        partParam,
      )
  })
  return texts.join('\n')
}

/**
 * OpenAI messages -> the agent's request: the last user message is the task, earlier user and
 * assistant messages the conversation, system/developer messages the caller's instructions.
 */
export function messagesToTask(messages: readonly ChatMessageInput[]): Task {
  const last = messages.at(-1)
  if (last?.role !== 'user')
    throw bridgeErrors.invalid('The last message must be the task, with role "user".', 'messages')
  const instructions: string[] = []
  const history: HistoryTurn[] = []
  const files: FileRef[] = []
  let prompt = ''
  messages.forEach((message, index) => {
    const param = `messages.[${index}]`
    if (message.role === 'tool' || message.role === 'function' || (message.tool_calls?.length ?? 0) > 0)
      throw bridgeErrors.invalid(
        'Tool calls and tool results belong to client-defined tools, which Bureau does not take: its agent runs its own tools. Send only system, user and assistant messages.',
        param,
        'tools_not_supported',
      )
    const text = readContent(message, param, files)
    if (message.role === 'system' || message.role === 'developer') {
      if (text.trim() !== '') instructions.push(text)
    } else if (index === messages.length - 1) prompt = text
    else if (message.role === 'user' || text !== '') history.push({ role: message.role, content: text })
  })
  if (prompt.trim() === '' && files.length === 0)
    throw bridgeErrors.invalid('The last user message is empty.', `messages.[${messages.length - 1}].content`)
  const seen = new Set<string>()
  const unique = files.filter((f) => f.kind !== 'id' || (!seen.has(f.fileId) && seen.add(f.fileId)))
  return {
    prompt: [...instructions, prompt].filter((part) => part.trim() !== '').join('\n\n'),
    history,
    files: unique,
  }
}
