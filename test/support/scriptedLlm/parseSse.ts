export interface SseEvent {
  /** The `event:` field, undefined when absent (OpenAI sends none). */
  event: string | undefined
  data: string
}

/**
 * Splits a complete `text/event-stream` body into events, per the WHATWG rules that matter for LLM streams:
 * CRLF/LF line ends, `data:` lines joined by '\n', comments and other fields ignored, unterminated last event dropped.
 */
export function parseSseEvents(body: string): SseEvent[] {
  const events: SseEvent[] = []
  let event: string | undefined
  let data: string[] = []
  for (const line of body.split(/\r\n|\r|\n/)) {
    if (line === '') {
      if (data.length > 0) events.push({ event, data: data.join('\n') })
      event = undefined
      data = []
      continue
    }
    if (line.startsWith(':')) continue
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '')
    if (field === 'data') data.push(value)
    else if (field === 'event') event = value
  }
  return events
}
