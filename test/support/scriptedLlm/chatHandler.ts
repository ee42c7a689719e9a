import type { ChatProtocol } from './chatProtocol'
import { errorHeaders, outOfScriptError, resolveError } from './errorBodies'
import type { Exchange } from './exchange'
import { buildPlan, chunkDelayOf, generationTimeMs, type ReplyPlan } from './replyPlan'
import type { ReplyQueue } from './replyScript'
import { cutMidStream, truncatedJson, withStreamError, writeFrames } from './streamFrames'
import type { ChatRequestInfo, MalformedTurn, ScriptedError, Turn } from './types'

export interface ChatDeps {
  script: ReplyQueue<Turn, ChatRequestInfo>
  nextSeq: () => number
}

const defaultModel = 'scripted-model'

export async function handleChat(exchange: Exchange, protocol: ChatProtocol, deps: ChatDeps): Promise<void> {
  const { record } = exchange
  const body = record.body
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    const message = 'We could not parse the JSON body of your request. (Scripted LLM expected a JSON object.)'
    return sendError(exchange, protocol, defaultModel, { status: 400, message })
  }
  const request = body as Record<string, unknown>
  const model = typeof request.model === 'string' ? request.model : defaultModel
  const turn = await deps.script.next(() => requestInfo(exchange, protocol, request, model))
  record.turn = turn
  if (turn === undefined) {
    record.outOfScript = true
    const hint = 'Queue turns with llm.push(...) or set llm.setResponder(...).'
    const error = outOfScriptError(record.method, record.path, record.index, hint)
    return sendError(exchange, protocol, model, error)
  }
  await exchange.sleep(turn.delayMs)
  if (exchange.closed) return
  if ('error' in turn) return sendError(exchange, protocol, model, turn.error)
  if ('hang' in turn) return exchange.hangUntilAbort()
  const context = { seq: deps.nextSeq(), model, promptChars: record.rawBody.length }
  const stream = protocol.wantsStream(request)
  if ('malformed' in turn) {
    const plan = buildPlan(
      { text: turn.text ?? 'This reply will break', chunkDelayMs: chunkDelayOf(turn) },
      context,
    )
    return sendMalformed(exchange, protocol, turn.malformed, plan, stream)
  }
  const plan = buildPlan(turn, context)
  return stream ? streamPlan(exchange, protocol, plan, request) : sendPlan(exchange, protocol, plan)
}

async function sendPlan(exchange: Exchange, protocol: ChatProtocol, plan: ReplyPlan): Promise<void> {
  await exchange.sleep(generationTimeMs(plan))
  if (plan.stallAfterChunks !== undefined) return exchange.hangUntilAbort()
  if (plan.streamError) return sendError(exchange, protocol, plan.model, { status: 500, ...plan.streamError })
  exchange.json(200, protocol.completion(plan))
}

async function streamPlan(
  exchange: Exchange,
  protocol: ChatProtocol,
  plan: ReplyPlan,
  request: Record<string, unknown>,
): Promise<void> {
  const frames = protocol.streamFrames(plan, request)
  const final = plan.streamError
    ? withStreamError(frames, protocol.streamErrorFrame(plan, plan.streamError))
    : frames
  exchange.head(200, streamHeaders(protocol))
  await writeFrames(exchange, final, {
    chunkDelayMs: plan.chunkDelayMs,
    stallAfterChunks: plan.stallAfterChunks,
  })
}

async function sendMalformed(
  exchange: Exchange,
  protocol: ChatProtocol,
  kind: MalformedTurn['malformed'],
  plan: ReplyPlan,
  stream: boolean,
): Promise<void> {
  if (!stream) return exchange.send(200, 'application/json', truncatedJson(protocol.completion(plan)))
  const broken = protocol.brokenFrame(plan)
  const frames =
    kind === 'json'
      ? [{ kind: 'chunk' as const, data: broken }]
      : cutMidStream(protocol.streamFrames(plan, exchange.record.body as Record<string, unknown>), broken)
  exchange.head(200, streamHeaders(protocol))
  await writeFrames(exchange, frames, { chunkDelayMs: plan.chunkDelayMs })
}

function streamHeaders(protocol: ChatProtocol): Record<string, string> {
  return { 'content-type': protocol.streamContentType, 'cache-control': 'no-cache', connection: 'keep-alive' }
}

export function sendError(
  exchange: Exchange,
  protocol: ChatProtocol,
  model: string,
  error: ScriptedError,
): void {
  const headers = errorHeaders(error)
  if (typeof error.body === 'string') {
    exchange.send(error.status, 'text/plain; charset=utf-8', error.body, headers)
  } else if (error.body !== undefined) {
    exchange.json(error.status, error.body, headers)
  } else {
    const resolved = resolveError(error, protocol.protocol, model)
    exchange.json(error.status, protocol.errorBody(resolved), headers)
  }
}

function requestInfo(
  exchange: Exchange,
  protocol: ChatProtocol,
  body: Record<string, unknown>,
  model: string,
): ChatRequestInfo {
  return {
    protocol: protocol.protocol,
    model,
    stream: protocol.wantsStream(body),
    messages: protocol.messages(body),
    tools: protocol.tools(body),
    lastUserText: protocol.lastUserText(body),
    body,
    request: exchange.record,
  }
}
