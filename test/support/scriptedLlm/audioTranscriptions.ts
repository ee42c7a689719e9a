import { sendError } from './chatHandler'
import { outOfScriptError } from './errorBodies'
import type { Exchange } from './exchange'
import { openaiChat } from './openaiChat'
import type { ReplyQueue } from './replyScript'
import type { RecordedUpload, TranscriptionReply, TranscriptionRequestInfo } from './types'

/** `POST /v1/audio/transcriptions`: multipart upload in, scripted transcript out. */
export async function handleTranscription(
  exchange: Exchange,
  script: ReplyQueue<TranscriptionReply, TranscriptionRequestInfo>,
): Promise<void> {
  const { record } = exchange
  const form = await readForm(exchange)
  if (!form) {
    return sendError(exchange, openaiChat, 'whisper-1', {
      status: 400,
      message: 'Expected a multipart/form-data body with a `file` part.',
    })
  }
  const fields: Record<string, string> = {}
  let upload: RecordedUpload | undefined
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') fields[name] = value
    else if (name === 'file')
      upload = { field: name, fileName: value.name, contentType: value.type, size: value.size }
  }
  record.body = fields
  record.upload = upload
  const model = fields.model ?? 'whisper-1'
  if (!upload)
    return sendError(exchange, openaiChat, model, {
      status: 400,
      message: "Missing required parameter: 'file'.",
    })

  const reply = await script.next(() => ({ model, fields, upload, request: record }))
  record.turn = reply
  if (!reply) {
    record.outOfScript = true
    const hint = 'Queue transcripts with llm.transcriptions.push({ text }) or set a responder.'
    return sendError(
      exchange,
      openaiChat,
      model,
      outOfScriptError(record.method, record.path, record.index, hint),
    )
  }
  await exchange.sleep(reply.delayMs)
  if (exchange.closed) return
  if (reply.error) return sendError(exchange, openaiChat, model, reply.error)
  if (reply.hang) return exchange.hangUntilAbort()
  sendTranscript(exchange, reply, fields.response_format ?? 'json')
}

function sendTranscript(exchange: Exchange, reply: TranscriptionReply, format: string): void {
  const text = reply.text ?? ''
  if (format === 'text') {
    exchange.send(200, 'text/plain; charset=utf-8', text)
  } else if (format === 'verbose_json') {
    const language = reply.language ?? 'english'
    exchange.json(200, { task: 'transcribe', language, duration: 1, text, segments: [] })
  } else {
    exchange.json(200, { text })
  }
}

async function readForm(exchange: Exchange): Promise<FormData | undefined> {
  const contentType = exchange.req.headers['content-type'] ?? ''
  if (!contentType.startsWith('multipart/form-data')) return undefined
  try {
    return await new Response(new Uint8Array(exchange.bodyBytes), {
      headers: { 'content-type': contentType },
    }).formData()
  } catch {
    return undefined
  }
}
