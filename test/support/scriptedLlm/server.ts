import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { anthropicMessages } from './anthropicMessages'
import { handleSpeech } from './audioSpeech'
import { handleTranscription } from './audioTranscriptions'
import { handleChat, sendError } from './chatHandler'
import { createEmbeddingsScript, handleEmbeddings } from './embeddings'
import { Exchange } from './exchange'
import {
  anthropicModelList,
  buildCatalog,
  type CatalogModel,
  findModel,
  ollamaShow,
  ollamaTags,
  openaiModelList,
} from './modelCatalog'
import { ollamaChat } from './ollamaChat'
import { openaiChat } from './openaiChat'
import { ReplyQueue } from './replyScript'
import { RequestLog } from './requestLog'
import type {
  ChatRequestInfo,
  Endpoint,
  RecordedRequest,
  ScriptedLlm,
  ScriptedLlmOptions,
  SpeechReply,
  SpeechRequestInfo,
  TranscriptionReply,
  TranscriptionRequestInfo,
  Turn,
} from './types'
import { validateTurn } from './validateTurn'

const routes: Record<string, Endpoint> = {
  'GET /v1/models': 'openai.models',
  'POST /v1/chat/completions': 'openai.chat',
  'POST /v1/messages': 'anthropic.messages',
  'POST /api/chat': 'ollama.chat',
  'GET /api/tags': 'ollama.tags',
  'POST /api/show': 'ollama.show',
  'GET /api/version': 'ollama.version',
  'POST /v1/audio/speech': 'audio.speech',
  'POST /v1/audio/transcriptions': 'audio.transcriptions',
  'POST /v1/embeddings': 'openai.embeddings',
  'POST /api/embed': 'ollama.embed',
}

interface State {
  catalog: CatalogModel[]
  chat: ReplyQueue<Turn, ChatRequestInfo>
  speech: ReplyQueue<SpeechReply, SpeechRequestInfo>
  transcriptions: ReplyQueue<TranscriptionReply, TranscriptionRequestInfo>
  embeddings: ReturnType<typeof createEmbeddingsScript>
  log: RequestLog
  nextSeq: () => number
}

/** Starts the scripted LLM server on 127.0.0.1 (a free port unless `options.port` is given). */
export async function startScriptedLlm(options: ScriptedLlmOptions = {}): Promise<ScriptedLlm> {
  let seq = 0
  const state: State = {
    catalog: buildCatalog(options.models),
    chat: new ReplyQueue<Turn, ChatRequestInfo>(validateTurn),
    speech: new ReplyQueue<SpeechReply, SpeechRequestInfo>(),
    transcriptions: new ReplyQueue<TranscriptionReply, TranscriptionRequestInfo>(),
    embeddings: createEmbeddingsScript(),
    log: new RequestLog(),
    nextSeq: () => ++seq,
  }
  state.chat.push(...(options.turns ?? []))
  state.chat.setResponder(options.responder)

  const server = createServer((req, res) => {
    void handleRequest(req, res, state)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  const url = `http://127.0.0.1:${port}`

  return {
    url,
    baseUrl: `${url}/v1`,
    port,
    push: (...turns) => state.chat.push(...turns),
    setResponder: (responder) => state.chat.setResponder(responder),
    get pending() {
      return state.chat.pending
    },
    speech: state.speech,
    transcriptions: state.transcriptions,
    embeddings: state.embeddings,
    requests: state.log.requests,
    waitForRequests: (count, waitOptions) => state.log.waitForRequests(count, waitOptions),
    waitUntil: (predicate, waitOptions) => state.log.waitUntil(predicate, 'the condition', waitOptions),
    reset() {
      state.chat.reset()
      state.speech.reset()
      state.transcriptions.reset()
      state.embeddings.set({ dimensions: 64, failStatus: undefined })
      state.log.clear()
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeAllConnections()
      }),
  }
}

async function handleRequest(req: IncomingMessage, res: ServerResponse, state: State): Promise<void> {
  const parsed = new URL(req.url ?? '/', 'http://127.0.0.1')
  const path = parsed.pathname.replace(/\/+$/, '') || '/'
  const method = req.method ?? 'GET'
  const record: RecordedRequest = {
    index: -1,
    method,
    path,
    query: Object.fromEntries(parsed.searchParams),
    headers: flattenHeaders(req),
    body: undefined,
    rawBody: '',
    endpoint: method === 'OPTIONS' ? 'options' : (routes[`${method} ${path}`] ?? 'unknown'),
    time: Date.now(),
    outOfScript: false,
    finished: false,
    aborted: false,
  }
  const controller = new AbortController()
  res.on('finish', () => {
    record.finished = true
    state.log.changed()
  })
  res.on('close', () => {
    if (!res.writableFinished) record.aborted = true
    controller.abort()
    state.log.changed()
  })
  const bytes = await readBody(req)
  if (bytes === undefined) return // the client went away while uploading
  const isMultipart = (req.headers['content-type'] ?? '').startsWith('multipart/form-data')
  if (!isMultipart) {
    record.rawBody = bytes.toString('utf8')
    record.body = parseBody(record.rawBody)
  }
  state.log.add(record)
  const exchange = new Exchange(req, res, record, bytes, controller.signal, () => state.log.changed())
  try {
    await dispatch(exchange, state)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    if (res.headersSent) res.destroy()
    else
      exchange.json(500, {
        error: { message: `Scripted LLM failed: ${message}`, type: 'scripted_llm_error' },
      })
  }
}

async function dispatch(exchange: Exchange, state: State): Promise<void> {
  const { record } = exchange
  const chatDeps = { script: state.chat, nextSeq: state.nextSeq }
  switch (record.endpoint) {
    case 'options':
      return exchange.send(204, 'text/plain', '')
    case 'openai.models': {
      const anthropic = record.headers['anthropic-version'] !== undefined
      return exchange.json(
        200,
        anthropic ? anthropicModelList(state.catalog) : openaiModelList(state.catalog),
      )
    }
    case 'openai.chat':
      return handleChat(exchange, openaiChat, chatDeps)
    case 'anthropic.messages':
      return handleChat(exchange, anthropicMessages, chatDeps)
    case 'ollama.chat':
      return handleChat(exchange, ollamaChat, chatDeps)
    case 'ollama.tags':
      return exchange.json(200, ollamaTags(state.catalog))
    case 'ollama.version':
      return exchange.json(200, { version: '0.12.0' })
    case 'ollama.show':
      return showModel(exchange, state.catalog)
    case 'audio.speech':
      return handleSpeech(exchange, state.speech)
    case 'audio.transcriptions':
      return handleTranscription(exchange, state.transcriptions)
    case 'openai.embeddings':
      return handleEmbeddings(exchange, state.embeddings, 'openai')
    case 'ollama.embed':
      return handleEmbeddings(exchange, state.embeddings, 'ollama')
    default:
      return sendError(exchange, openaiChat, '', {
        status: 404,
        code: 'unknown_url',
        message: `Scripted LLM: no route for ${record.method} ${record.path}.`,
      })
  }
}

function showModel(exchange: Exchange, catalog: CatalogModel[]): void {
  const body = (exchange.record.body ?? {}) as { model?: unknown; name?: unknown }
  const name = typeof body.model === 'string' ? body.model : typeof body.name === 'string' ? body.name : ''
  const model = findModel(catalog, name)
  if (model) exchange.json(200, ollamaShow(model))
  else exchange.json(404, { error: `model '${name}' not found` })
}

function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value
  }
  return headers
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = []
  try {
    for await (const chunk of req) chunks.push(chunk as Buffer)
  } catch {
    return undefined
  }
  return Buffer.concat(chunks)
}

function parseBody(text: string): unknown {
  if (text === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
