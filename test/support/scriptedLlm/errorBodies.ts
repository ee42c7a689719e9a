import type { Protocol, ScriptedError } from './types'

export interface ResolvedError {
  status: number
  message: string
  type: string
  code: string | null
}

interface StatusDefaults {
  message: string
  openaiType: string
  openaiCode: string | null
  anthropicType: string
}

const defaults: Record<number, StatusDefaults> = {
  400: {
    message: 'Invalid request.',
    openaiType: 'invalid_request_error',
    openaiCode: null,
    anthropicType: 'invalid_request_error',
  },
  401: {
    message: 'Incorrect API key provided.',
    openaiType: 'invalid_request_error',
    openaiCode: 'invalid_api_key',
    anthropicType: 'authentication_error',
  },
  403: {
    message: 'You are not allowed to use this model.',
    openaiType: 'permission_error',
    openaiCode: null,
    anthropicType: 'permission_error',
  },
  404: {
    message: 'The model `{model}` does not exist or you do not have access to it.',
    openaiType: 'invalid_request_error',
    openaiCode: 'model_not_found',
    anthropicType: 'not_found_error',
  },
  408: {
    message: 'Request timed out.',
    openaiType: 'timeout_error',
    openaiCode: null,
    anthropicType: 'timeout_error',
  },
  413: {
    message: 'Request too large.',
    openaiType: 'invalid_request_error',
    openaiCode: 'request_too_large',
    anthropicType: 'request_too_large',
  },
  429: {
    message: 'Rate limit reached for requests. Please try again later.',
    openaiType: 'requests',
    openaiCode: 'rate_limit_exceeded',
    anthropicType: 'rate_limit_error',
  },
  500: {
    message: 'The server had an error while processing your request. Sorry about that!',
    openaiType: 'server_error',
    openaiCode: null,
    anthropicType: 'api_error',
  },
  502: { message: 'Bad gateway.', openaiType: 'server_error', openaiCode: null, anthropicType: 'api_error' },
  503: {
    message: 'The engine is currently overloaded, please try again later.',
    openaiType: 'server_error',
    openaiCode: null,
    anthropicType: 'overloaded_error',
  },
  529: {
    message: 'Overloaded',
    openaiType: 'server_error',
    openaiCode: null,
    anthropicType: 'overloaded_error',
  },
}

function defaultsFor(status: number): StatusDefaults {
  return (
    defaults[status] ??
    defaults[status >= 500 ? 500 : 400] ?? {
      message: 'Error.',
      openaiType: 'server_error',
      openaiCode: null,
      anthropicType: 'api_error',
    }
  )
}

export function resolveError(error: ScriptedError, protocol: Protocol, model: string): ResolvedError {
  const base = defaultsFor(error.status)
  return {
    status: error.status,
    message: error.message ?? base.message.replace('{model}', model),
    type: error.type ?? (protocol === 'anthropic' ? base.anthropicType : base.openaiType),
    code: error.code !== undefined ? error.code : base.openaiCode,
  }
}

export function openaiErrorBody(error: ResolvedError): unknown {
  return { error: { message: error.message, type: error.type, param: null, code: error.code } }
}

export function anthropicErrorBody(error: ResolvedError): unknown {
  return { type: 'error', error: { type: error.type, message: error.message } }
}

export function ollamaErrorBody(error: ResolvedError): unknown {
  return { error: error.message }
}

/** Headers for a scripted error: Retry-After plus whatever the script adds. */
export function errorHeaders(error: ScriptedError): Record<string, string> {
  const headers: Record<string, string> = {}
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds)
  for (const [name, value] of Object.entries(error.headers ?? {})) headers[name.toLowerCase()] = value
  return headers
}

export function outOfScriptError(method: string, path: string, index: number, hint: string): ScriptedError {
  return {
    status: 500,
    type: 'scripted_llm_error',
    code: 'script_exhausted',
    message:
      `Scripted LLM: the script ran out. No turn was queued for ${method} ${path} (request #${index}) ` +
      `and no responder answered. ${hint}`,
  }
}
