import { encodeSpeech, isSpeechFormat, speechContentTypes } from './audioEncoding'
import { sendError } from './chatHandler'
import type { Exchange } from './exchange'
import { openaiChat } from './openaiChat'
import type { ReplyQueue } from './replyScript'
import type { SpeechReply, SpeechRequestInfo } from './types'

/** `POST /v1/audio/speech`: generated audio; scripted replies add delays, errors or hangs. */
export async function handleSpeech(
  exchange: Exchange,
  script: ReplyQueue<SpeechReply, SpeechRequestInfo>,
): Promise<void> {
  const body = exchange.record.body
  const request = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {}
  const model = typeof request.model === 'string' ? request.model : 'tts-1'
  if (typeof request.input !== 'string') {
    return sendError(exchange, openaiChat, model, {
      status: 400,
      message: "Missing required parameter: 'input'.",
    })
  }
  const input = request.input
  const format = typeof request.response_format === 'string' ? request.response_format : 'wav'
  const info = (): SpeechRequestInfo => ({
    input,
    voice: typeof request.voice === 'string' ? request.voice : '',
    model,
    format,
    body: request,
    request: exchange.record,
  })
  const reply = (await script.next(info)) ?? {}
  exchange.record.turn = reply
  await exchange.sleep(reply.delayMs)
  if (exchange.closed) return
  if (reply.error) return sendError(exchange, openaiChat, model, reply.error)
  if (reply.hang) return exchange.hangUntilAbort()
  if (!isSpeechFormat(format)) {
    const message = `The scripted LLM produces wav, pcm and mp3 only, not '${format}'.`
    return sendError(exchange, openaiChat, model, { status: 400, message })
  }
  const durationMs = reply.durationMs ?? Math.min(10_000, Math.max(300, input.length * 60))
  exchange.send(200, speechContentTypes[format], encodeSpeech(format, durationMs, reply.frequencyHz ?? 440))
}
