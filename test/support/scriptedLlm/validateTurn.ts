import type { Pacing, ScriptedToolCall, Turn } from './types'

type Fail = (why: string) => never

/** Throws at push time so a typo in a test script fails where it is written, not in the middle of a request. */
export function validateTurn(turn: Turn): void {
  const fail: Fail = (why) => {
    throw new TypeError(`scripted LLM: invalid turn ${JSON.stringify(turn)}: ${why}`)
  }
  if (typeof turn !== 'object' || turn === null) fail('a turn is an object')
  if ('error' in turn) {
    if (!Number.isInteger(turn.error?.status)) fail('error.status must be an HTTP status number')
    return
  }
  if ('hang' in turn) return
  validatePacing(turn, fail)
  if ('malformed' in turn) {
    if (turn.malformed !== 'json' && turn.malformed !== 'sse') fail("malformed is 'json' or 'sse'")
    return
  }
  if ('toolCalls' in turn) {
    if (!Array.isArray(turn.toolCalls) || turn.toolCalls.length === 0)
      fail('toolCalls needs at least one call')
    for (const call of turn.toolCalls) validateToolCall(call, fail)
  } else if (typeof (turn as { text?: unknown }).text !== 'string') {
    fail('a turn needs text, toolCalls, error, malformed or hang')
  }
  if (turn.chunks !== undefined && turn.chunks.join('') !== (turn.text ?? ''))
    fail('chunks must join to text')
}

function validatePacing(pacing: Pacing, fail: Fail): void {
  if (pacing.chunkDelayMs !== undefined && pacing.tokensPerSecond !== undefined) {
    fail('give chunkDelayMs or tokensPerSecond, not both')
  }
  if (pacing.tokensPerSecond !== undefined && !(pacing.tokensPerSecond > 0))
    fail('tokensPerSecond must be > 0')
}

function validateToolCall(call: ScriptedToolCall, fail: Fail): void {
  if (typeof call.name !== 'string' || call.name === '') fail('every tool call needs a name')
  if (typeof call.arguments !== 'string' && (typeof call.arguments !== 'object' || call.arguments === null)) {
    fail('tool call arguments are a string or an object')
  }
  if (call.argumentChunks !== undefined && call.argumentChunks.join('') !== argumentsText(call)) {
    fail(`argumentChunks of ${call.name} must join to its arguments`)
  }
}

export function argumentsText(call: ScriptedToolCall): string {
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments)
}
