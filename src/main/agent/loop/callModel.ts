import type { LlmSession, TurnResult } from '../../llm'

/**
 * How streamed text reaches the user: `all` as it arrives; `sniff` (JSON protocol) holds it until the
 * first visible character shows whether the reply is a JSON call (never shown) or prose (streamed);
 * `none` never (sub-agents).
 */
export type TextMode = 'all' | 'sniff' | 'none'

export interface CallModelOptions {
  signal: AbortSignal
  textMode: TextMode
  onText: (text: string) => void
  /** JSON protocol: the only methods this reply may call (see `TurnOptions.onlyTools`). */
  onlyTools?: readonly string[]
}

export interface ModelTurn {
  turn: TurnResult
  /** The answer text passed to `onText`, joined. */
  shown: string
}

function looksLikeJson(text: string): boolean | undefined {
  const first = text.trimStart()[0]
  if (first === undefined) return undefined
  return first === '{' || first === '`' || first === '['
}

/** One model call through the provider session: text passed on as it arrives, the turn returned whole. */
export async function callModel(session: LlmSession, options: CallModelOptions): Promise<ModelTurn> {
  let shown = ''
  let pending = ''
  let decided = false
  let showProtocolText = false
  const send = (text: string) => {
    if (!text) return
    shown += text
    options.onText(text)
  }
  // Prose before a JSON call is shown; the call itself (from the first `{` or fence) never is.
  const sendProse = (text: string) => {
    const start = text.search(/[{`]/)
    if (start >= 0) showProtocolText = false
    send(start >= 0 ? text.slice(0, start) : text)
  }
  for await (const event of session.stream({
    signal: options.signal,
    ...(options.onlyTools && { onlyTools: options.onlyTools }),
  })) {
    if (event.type === 'text') {
      if (options.textMode !== 'none') send(event.text)
    } else if (event.type === 'protocol-text') {
      if (options.textMode !== 'sniff') continue
      if (decided) {
        if (showProtocolText) sendProse(event.text)
        continue
      }
      pending += event.text
      const json = looksLikeJson(pending)
      if (json === undefined) continue
      decided = true
      showProtocolText = !json
      if (showProtocolText) sendProse(pending)
      pending = ''
    } else if (event.type === 'done') {
      return { turn: event.turn, shown }
    }
  }
  throw new Error('The model stream ended without a final message.')
}
