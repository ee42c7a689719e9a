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
}

export interface ModelTurn {
  turn: TurnResult
  /** Whether any of the answer text was passed to `onText`. */
  streamed: boolean
}

function looksLikeJson(text: string): boolean | undefined {
  const first = text.trimStart()[0]
  if (first === undefined) return undefined
  return first === '{' || first === '`' || first === '['
}

/** One model call through the provider session: text passed on as it arrives, the turn returned whole. */
export async function callModel(session: LlmSession, options: CallModelOptions): Promise<ModelTurn> {
  let streamed = false
  let pending = ''
  let decided = false
  let showProtocolText = false
  const send = (text: string) => {
    if (!text) return
    streamed = true
    options.onText(text)
  }
  for await (const event of session.stream({ signal: options.signal })) {
    if (event.type === 'text') {
      if (options.textMode !== 'none') send(event.text)
    } else if (event.type === 'protocol-text') {
      if (options.textMode !== 'sniff') continue
      if (decided) {
        if (showProtocolText) send(event.text)
        continue
      }
      pending += event.text
      const json = looksLikeJson(pending)
      if (json === undefined) continue
      decided = true
      showProtocolText = !json
      if (showProtocolText) send(pending)
      pending = ''
    } else if (event.type === 'done') {
      return { turn: event.turn, streamed }
    }
  }
  throw new Error('The model stream ended without a final message.')
}
