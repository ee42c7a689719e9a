import type { LlamaGrammar } from 'node-llama-cpp'
import { AppError } from '../../../shared/errors'
import { closeCall } from '../local/closeCall'
import { EventChannel } from '../local/eventChannel'
import { toLocalHistory } from '../local/localHistory'
import type { LocalModelHost } from '../local/localHost'
import { LOCAL_AUTO_CONTEXT_CAP, type LoadedModel } from '../local/localRuntime'
import { toolCallGrammar } from '../local/toolGrammar'
import type { ChatRequest, FinishReason, ResolvedProvider } from '../types'
import type { DriverEvent, ProviderDriver } from './driver'

/** Output tokens per answer when neither the request nor the provider sets a limit. */
export const LOCAL_DEFAULT_MAX_OUTPUT = 2048

/**
 * The default limit, at most a quarter of the context: the share the session keeps free for the answer
 * when it trims the history (`llmSession`), so prompt and answer fit without a context shift.
 */
function defaultMaxOutput(loaded: LoadedModel): number {
  return Math.min(LOCAL_DEFAULT_MAX_OUTPUT, Math.floor(loaded.context.contextSize / 4))
}

async function grammarFor(loaded: LoadedModel, request: ChatRequest): Promise<LlamaGrammar | undefined> {
  if (request.protocolTools?.length) return toolCallGrammar(loaded.llama, request.protocolTools)
  if (request.json) return loaded.llama.getGrammarFor('json')
  return undefined
}

function finishReason(stopReason: string): FinishReason {
  return stopReason === 'maxTokens' ? 'length' : 'stop'
}

async function generate(
  loaded: LoadedModel,
  provider: ResolvedProvider,
  request: ChatRequest,
  signal: AbortSignal,
  out: EventChannel<DriverEvent>,
): Promise<void> {
  const grammar = await grammarFor(loaded, request)
  const meter = loaded.chat.sequence.tokenMeter
  const before = { input: meter.usedInputTokens, output: meter.usedOutputTokens }
  let text = ''
  const response = await loaded.chat.generateResponse(toLocalHistory(request.messages), {
    ...(grammar && { grammar }),
    signal,
    maxTokens: request.maxOutputTokens ?? provider.maxOutputTokens ?? defaultMaxOutput(loaded),
    ...(provider.temperature !== undefined && { temperature: provider.temperature }),
    onTextChunk(chunk: string) {
      text += chunk
      out.push({ type: 'text', text: chunk })
    },
  })
  if (signal.aborted) throw signal.reason ?? new AppError('CANCELLED', 'The request was cancelled.')
  const reason = finishReason(response.metadata.stopReason)
  // The grammar guarantees a valid prefix; a call cut off by the token budget is closed so it still parses.
  if (reason === 'length' && request.protocolTools?.length) {
    const suffix = closeCall(text, request.protocolTools)
    if (suffix) out.push({ type: 'text', text: suffix })
  }
  out.push({
    type: 'usage',
    usage: {
      inputTokens: meter.usedInputTokens - before.input,
      outputTokens: meter.usedOutputTokens - before.output,
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
    },
  })
  out.push({ type: 'finish', reason, model: provider.model })
}

/** The embedded llama.cpp (provider kind `local`): the model file runs in this process. */
export function createLocalDriver(
  provider: ResolvedProvider,
  host: LocalModelHost | undefined,
): ProviderDriver {
  const need = (): LocalModelHost => {
    if (!host)
      throw new AppError(
        'UNSUPPORTED',
        'Local models run only in the Bureau app or CLI (no local model host here).',
      )
    return host
  }
  let window: number | undefined

  async function contextWindow(): Promise<number> {
    if (provider.contextWindow) return provider.contextWindow
    if (window) return window
    const local = need()
    const path = await local.modelPath(provider.model)
    const { readGgufFileInfo } = await import('node-llama-cpp')
    const info = await readGgufFileInfo(path, { readTensorInfo: false })
    const trained = Number(info.architectureMetadata?.context_length ?? 0)
    window = Math.min(trained > 0 ? trained : LOCAL_AUTO_CONTEXT_CAP, LOCAL_AUTO_CONTEXT_CAP)
    return window
  }

  return {
    async open(request, signal) {
      const local = need()
      const path = await local.modelPath(provider.model)
      const out = new EventChannel<DriverEvent>()
      local.runtime
        .run(path, { contextWindow: provider.contextWindow }, (loaded) => {
          window = provider.contextWindow ?? loaded.context.contextSize
          return generate(loaded, provider, request, signal, out)
        })
        .then(
          () => out.end(),
          (error: unknown) => out.fail(error),
        )
      return out
    },
    contextWindow,
  }
}
