import { AppError } from '../../../shared/errors'
import { retryAfterMs } from '../clients/retryAfter'
import type { PublicProvider } from '../types'
import type { FailureInfo } from './failureInfo'
import { displayUrl, providerMessageForUser } from './redactSecrets'

export interface ClassifiedFailure {
  error: AppError
  /** Worth another attempt (only before any output reached the caller). */
  retryable: boolean
  /** The server's Retry-After, in ms. */
  retryAfterMs: number | undefined
}

export interface FailureContext {
  provider: PublicProvider
  /** Values that must never appear in a message (the API key). */
  secrets: ReadonlyArray<string | undefined>
  timeoutMs: number
  now?: () => number
  /** What the SDK or fetch threw: kept as the AppError's cause (for logs; it never reaches the user). */
  cause?: unknown
}

function appError(code: AppError['code'], message: string, ctx: FailureContext): AppError {
  return new AppError(code, message, ctx.cause === undefined ? undefined : { cause: ctx.cause })
}

const CONTEXT_TOO_LONG =
  /context[ _-]?(length|window)|maximum context|too many tokens|prompt is too long|input is too long|reduce the length|exceeds? the (model'?s? )?(maximum|max|context)|num_ctx|tokens? (limit|exceed)/i
const QUOTA = /insufficient[_ ]quota|insufficient balance|exceeded your current quota|billing|credit/i
const LOCAL_SERVERS: Record<string, string> = { '11434': 'Ollama', '1234': 'LM Studio' }

function parsedUrl(provider: PublicProvider): URL | undefined {
  try {
    return new URL(provider.baseUrl)
  } catch {
    return undefined
  }
}

function isLocal(provider: PublicProvider): boolean {
  const host = parsedUrl(provider)?.hostname
  return host === '127.0.0.1' || host === 'localhost' || host === '::1' || host === '[::1]'
}

/** Where to fix a key: the environment variable it came from, else the Settings section (the section's real name). */
export function keyHint(provider: Pick<PublicProvider, 'apiKeyEnv' | 'apiKeyFrom'>): string {
  if (provider.apiKeyFrom)
    return `The key came from the environment variable ${provider.apiKeyFrom}: correct it there, or unset it and enter the key in Settings → Model provider.`
  const env = provider.apiKeyEnv ? ` or set ${provider.apiKeyEnv}` : ''
  return `Enter the key in Settings → Model provider${env}.`
}

function unreachable(provider: PublicProvider): string {
  const url = displayUrl(provider.baseUrl)
  if (provider.kind === 'ollama')
    return `Cannot reach Ollama. Is Ollama running at ${url}? Start it with "ollama serve".`
  if (isLocal(provider)) {
    const app = LOCAL_SERVERS[parsedUrl(provider)?.port ?? '']
    // A preset's name ("OpenAI") says nothing about a server on this machine: name the address instead.
    if (!app) return `Cannot reach the model server at ${url}. Is it running, and is the base URL right?`
    return `Cannot reach ${provider.name}. Is ${app} running with its server started at ${url}?`
  }
  return `Cannot reach ${provider.name} at ${url}. Check the base URL and the network connection.`
}

function httpFailure(info: FailureInfo, ctx: FailureContext): ClassifiedFailure {
  const { provider } = ctx
  const status = info.status ?? 0
  const said = providerMessageForUser(info.message, ctx.secrets)
  const detail = said ? ` (${status}: ${said})` : ` (${status})`
  const retryAfter = retryAfterMs(info.headers, ctx.now)
  const fail = (code: AppError['code'], message: string, retryable = false): ClassifiedFailure => ({
    error: appError(code, message, ctx),
    retryable,
    retryAfterMs: retryAfter,
  })
  const text = `${info.message ?? ''} ${info.code ?? ''}`
  if (status === 401)
    return fail('UNAUTHORIZED', `${provider.name} rejected the API key (401). ${keyHint(provider)}`)
  if (status === 402 || (status === 429 && QUOTA.test(text)))
    return fail(
      'RATE_LIMITED',
      `${provider.name} refused the request: the account has no credit or quota left${detail}.`,
    )
  if (status === 403)
    return fail(
      'FORBIDDEN',
      `${provider.name} refused access${detail}. Check the key's permissions for model "${provider.model}".`,
    )
  if (status === 404) {
    if (provider.kind === 'ollama')
      return fail(
        'NOT_FOUND',
        `The model "${provider.model}" is not installed in Ollama. Run "ollama pull ${provider.model}" or choose another model.`,
      )
    return fail(
      'NOT_FOUND',
      `${provider.name} does not know the model "${provider.model}"${detail}. Check the model name and the base URL in Settings → Model provider.`,
    )
  }
  if (
    status === 413 ||
    ((status === 400 || status === 422 || status === 500) && CONTEXT_TOO_LONG.test(text))
  ) {
    const window = provider.contextWindow ? ` (${provider.contextWindow} tokens)` : ''
    return fail(
      'TOO_LARGE',
      `The conversation is too long for the context window of "${provider.model}"${window}. Start a new conversation or attach less.`,
    )
  }
  if (status === 429) {
    const wait =
      retryAfter !== undefined
        ? ` Try again in ${Math.ceil(retryAfter / 1000)} s.`
        : ' Try again in a minute.'
    return fail('RATE_LIMITED', `${provider.name} is limiting the request rate (429).${wait}`, true)
  }
  if (status === 408) return fail('TIMEOUT', `${provider.name} timed out (408). Try again.`, true)
  if (status >= 500)
    return fail('UNAVAILABLE', `${provider.name} had a server error${detail}. Try again later.`, true)
  return fail('HANDLER_FAILED', `${provider.name} rejected the request${detail}.`)
}

/** Turns one failed attempt into a short, safe, actionable AppError (and whether to retry). */
export function classifyFailure(info: FailureInfo, ctx: FailureContext): ClassifiedFailure {
  const { provider } = ctx
  const plain = (code: AppError['code'], message: string, retryable = false): ClassifiedFailure => ({
    error: appError(code, message, ctx),
    retryable,
    retryAfterMs: undefined,
  })
  switch (info.kind) {
    case 'cancelled':
      return plain('CANCELLED', `The request to ${provider.name} was cancelled.`)
    case 'timeout': {
      const seconds = Math.round(ctx.timeoutMs / 1000)
      const local =
        provider.kind === 'ollama' || isLocal(provider)
          ? ' A local model may still be loading: try again.'
          : ''
      return plain('TIMEOUT', `${provider.name} did not answer for ${seconds} s.${local}`)
    }
    case 'http':
      return httpFailure(info, ctx)
    case 'connection': {
      const refused = info.code === 'ECONNREFUSED' || info.code === 'ENOTFOUND' || info.code === 'EAI_AGAIN'
      return plain('UNAVAILABLE', unreachable(provider), !refused)
    }
    case 'malformed':
      return plain(
        'UNAVAILABLE',
        `${provider.name} sent a reply Bureau could not read (malformed JSON). Try again.`,
        true,
      )
    case 'incomplete':
      return plain(
        'UNAVAILABLE',
        `The reply from ${provider.name} was cut off before it was complete. Try again.`,
        true,
      )
    case 'stream': {
      const said = providerMessageForUser(info.message, ctx.secrets)
      if (said && CONTEXT_TOO_LONG.test(said)) return httpFailure({ ...info, kind: 'http', status: 400 }, ctx)
      return plain(
        'UNAVAILABLE',
        `${provider.name} reported an error while answering${said ? `: ${said}` : ''}.`,
        true,
      )
    }
    default: {
      const said = providerMessageForUser(info.message, ctx.secrets)
      return plain('HANDLER_FAILED', `The request to ${provider.name} failed${said ? `: ${said}` : ''}.`)
    }
  }
}
