import { AppError, type ErrorCode } from '../../shared/errors'
import type { Endpoint } from './types'

interface MailFailure {
  code?: string
  message?: string
  responseText?: string
  response?: string
  authenticationFailed?: boolean
  serverResponseCode?: string
}

const TLS_CODES =
  /^(ERR_SSL_|ERR_TLS_|EPROTO$|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|CERT_|UNABLE_TO_(VERIFY|GET)_)/
const LOST =
  /^(ECONNRESET|EPIPE|NoConnection|EConnectionClosed|ETIMEDOUT_SOCKET)$|connection (not available|closed)|socket (closed|hang up)/i

function fail(code: ErrorCode, text: string): AppError {
  return new AppError(code, text)
}

/** One short, actionable error for any IMAP or SMTP failure; never the password, never a stack. */
export function mailError(error: unknown, protocol: 'IMAP' | 'SMTP', at: Endpoint, user = ''): AppError {
  if (error instanceof AppError) return error
  const e = (error ?? {}) as MailFailure
  const where = `${protocol} server ${at.host}:${at.port}`
  const server = (e.responseText ?? e.response ?? '').replace(/\s+/g, ' ').trim().slice(0, 200)
  const code = e.code ?? ''
  const message = (e.message ?? String(error)).replace(/\s+/g, ' ').slice(0, 200)
  if (e.authenticationFailed || code === 'EAUTH' || code === 'AUTHENTICATIONFAILED')
    return fail(
      'UNAUTHORIZED',
      `The ${where} refused the login of "${user}": wrong user name or password${server ? ` (${server})` : ''}.`,
    )
  if (code === 'ECONNREFUSED')
    return fail(
      'UNAVAILABLE',
      `Cannot connect to the ${where}: connection refused (is the host and port right?).`,
    )
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return fail('UNAVAILABLE', `Cannot connect to the ${where}: the host name is not known.`)
  if (TLS_CODES.test(code) || /SSL|TLS|certificate|wrong version number/i.test(message))
    return fail(
      'UNAVAILABLE',
      `TLS with the ${where} failed (${message}). Check the TLS setting: ${
        at.tls
          ? 'this port may expect a plain connection with STARTTLS'
          : 'the server may expect TLS from the start'
      }, or the server's certificate.`,
    )
  if (
    code === 'ETIMEDOUT' ||
    code === 'ETIMEOUT' ||
    code === 'CONNECT_TIMEOUT' ||
    /timed? ?out/i.test(message)
  )
    return fail('TIMEOUT', `The ${where} did not answer in time.`)
  if (LOST.test(code) || LOST.test(message))
    return fail('UNAVAILABLE', `The connection to the ${where} was lost (${message}); try again.`)
  if (
    /TRYCREATE|doesn't exist|does not exist|Mailbox not found|NONEXISTENT/i.test(
      `${server} ${e.serverResponseCode ?? ''}`,
    )
  )
    return fail('NOT_FOUND', `The ${where} has no such folder (${server}); list_folders shows the folders.`)
  return fail('HANDLER_FAILED', `The ${where} failed: ${server || message}`)
}
