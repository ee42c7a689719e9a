import type { Context, Hono } from 'hono'
import { streamSSE } from 'hono/streaming'
import type { AgentStep } from '../../../shared/ipc'
import { BridgeError, bridgeErrors, errorResponse } from '../errors'
import type { BridgeLimits } from '../limits/bridgeLimits'
import { limitBody } from '../limits/limitBody'
import type { RunQueue } from '../limits/runQueue'
import { findModel } from '../models/modelCatalog'
import type { BridgeEnv, BridgeServices } from '../types'
import { chunkFactory, completionId, publicStep, usageOf } from './chunks'
import { messagesToTask } from './messagesToTask'
import type { ChatCompletionRequest } from './requestSchema'
import { resolveAttachments } from './resolveAttachments'
import { type CompletionDeps, filesTrailer, runCompletion } from './runCompletion'
import { validateRequest } from './validateRequest'

async function readRequest(c: Context<BridgeEnv>): Promise<ChatCompletionRequest> {
  let body: unknown
  try {
    body = JSON.parse(await c.req.text())
  } catch {
    throw bridgeErrors.malformedJson()
  }
  return validateRequest(body)
}

/** Aborts when the client goes away: the request's signal (node-server fires it on a premature close). */
function linkedController(signal: AbortSignal): AbortController {
  const controller = new AbortController()
  if (signal.aborted) controller.abort(signal.reason)
  else signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true })
  return controller
}

/** `POST /v1/chat/completions`: the messages go to the agent (or plain chat); JSON or OpenAI's SSE. */
export function mountChatEndpoint(
  bridge: Hono<BridgeEnv>,
  services: BridgeServices,
  queue: RunQueue,
  limits: () => BridgeLimits,
): void {
  bridge.post(
    '/chat/completions',
    limitBody(() => limits().maxRequestBytes, bridgeErrors.requestTooLarge),
    async (c) => {
      const request = await readRequest(c)
      const profile = findModel(services.tools(), request.model)
      if (!profile) throw bridgeErrors.unknownModel(request.model)
      const task = messagesToTask(request.messages)
      const owner = c.get('tokenName')
      const { maxFileBytes } = limits()
      const attachments = await resolveAttachments(task.files, services.files, owner, maxFileBytes)
      const controller = linkedController(c.req.raw.signal)
      let release: () => void
      try {
        release = await queue.acquire(controller.signal)
      } catch (error) {
        if (error instanceof BridgeError) throw error
        return new Response(null, { status: 499 })
      }
      const deps: CompletionDeps = {
        chat: services.chat,
        files: services.files,
        owner,
        maxFileBytes,
        useMemory: services.memoryTokens?.().includes(owner) ?? false,
        logger: services.logger,
      }
      const origin = new URL(c.req.url).origin
      const run = (sink: Parameters<typeof runCompletion>[5]) =>
        runCompletion(deps, profile, task, attachments, controller.signal, sink)

      if (request.stream !== true) {
        try {
          let text = ''
          const steps: AgentStep[] = []
          const notices: string[] = []
          const outcome = await run({
            text: (t) => {
              text += t
            },
            step: (phase, step) => {
              if (phase === 'finished') steps.push(step)
            },
            notice: (message) => notices.push(message),
          })
          if (outcome.error) return errorResponse(c, outcome.error)
          const content = text + filesTrailer(outcome.returned, origin, text !== '')
          return c.json({
            id: completionId(),
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model: request.model,
            choices: [
              {
                index: 0,
                message: { role: 'assistant', content, refusal: null, annotations: [] },
                logprobs: null,
                finish_reason: outcome.finishReason,
              },
            ],
            usage: usageOf(outcome.usage),
            bureau_status: outcome.status,
            bureau_steps: outcome.steps.map(publicStep),
            bureau_files: outcome.returned.flatMap((r) =>
              r.file
                ? [{ id: r.file.id, filename: r.name, bytes: r.file.bytes, agent_path: r.agentPath }]
                : [],
            ),
            ...(notices.length > 0 ? { bureau_notices: notices } : {}),
          })
        } finally {
          release()
        }
      }

      const includeUsage = request.stream_options?.include_usage === true
      const chunks = chunkFactory(request.model, includeUsage)
      return streamSSE(c, async (stream) => {
        stream.onAbort(() => controller.abort(new Error('client disconnected')))
        // Agent events arrive synchronously; writes are chained so they keep their order.
        let writing: Promise<void> = Promise.resolve()
        let textSent = false
        const send = (payload: unknown) => {
          writing = writing.then(() =>
            stream.aborted ? undefined : stream.writeSSE({ data: JSON.stringify(payload) }),
          )
        }
        try {
          send(chunks.role())
          const outcome = await run({
            text: (t) => {
              textSent = true
              send(chunks.content(t))
            },
            step: (phase, step) => send(chunks.step(phase, step)),
            notice: (message) => send(chunks.notice(message)),
          })
          if (controller.signal.aborted) return
          if (outcome.error) {
            send(outcome.error.toBody())
            return
          }
          const trailer = filesTrailer(outcome.returned, origin, textSent)
          if (trailer) send(chunks.content(trailer))
          send(chunks.finish(outcome.finishReason, outcome.status))
          if (includeUsage) send(chunks.usage(usageOf(outcome.usage)))
          writing = writing.then(async () => {
            if (!stream.aborted) await stream.write('data: [DONE]\n\n')
          })
        } finally {
          await writing.catch(() => undefined)
          release()
        }
      })
    },
  )
}
