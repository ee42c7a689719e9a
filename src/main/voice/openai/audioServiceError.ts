import { AppError } from '../../../shared/errors'

interface ErrorLike {
  name?: string
  status?: number
  message?: string
}

/** A short, actionable error for a failed call to an OpenAI-compatible audio service. */
export function audioServiceError(
  error: unknown,
  service: 'speech' | 'transcription',
  host: string,
): AppError {
  if (error instanceof AppError) return error
  const e = (error ?? {}) as ErrorLike
  if (e.name === 'APIUserAbortError' || e.name === 'AbortError')
    return new AppError('CANCELLED', 'Cancelled.')
  if (e.name === 'APIConnectionTimeoutError')
    return new AppError('TIMEOUT', `The ${service} service at ${host} did not answer in time.`)
  if (e.name === 'APIConnectionError' || e.status === undefined)
    return new AppError(
      'UNAVAILABLE',
      `Cannot reach the ${service} service at ${host}. Check the URL under Settings > Voice.`,
    )
  const settings = 'Settings > Voice'
  switch (e.status) {
    case 401:
    case 403:
      return new AppError(
        'UNAUTHORIZED',
        `The ${service} service at ${host} rejected the API key: enter it again under ${settings}.`,
      )
    case 404:
      return new AppError(
        'UNAVAILABLE',
        `The ${service} service at ${host} has no ${service === 'speech' ? '/audio/speech' : '/audio/transcriptions'} endpoint or model (404): check the URL and model under ${settings}.`,
      )
    case 413:
      return new AppError('TOO_LARGE', `The recording is too large for the ${service} service at ${host}.`)
    case 429:
      return new AppError(
        'RATE_LIMITED',
        `The ${service} service at ${host} is rate-limiting: wait a moment and try again.`,
      )
    default: {
      const detail = (e.message ?? '')
        .replace(/^\d{3}\s*/, '')
        .split('\n')[0]
        ?.slice(0, 200)
      return new AppError(
        e.status >= 500 ? 'UNAVAILABLE' : 'HANDLER_FAILED',
        `The ${service} service at ${host} failed (HTTP ${e.status})${detail ? `: ${detail}` : '.'}`,
        { cause: e },
      )
    }
  }
}
