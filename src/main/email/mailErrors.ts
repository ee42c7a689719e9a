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

/** Certificate failures: the TLS handshake worked, but the server's certificate cannot be trusted. */
const CERT_CODES: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'it is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'it is signed by a self-signed authority that is not trusted',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its issuer is not a trusted authority',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'its issuer is not a trusted authority',
  ERR_TLS_CERT_ALTNAME_INVALID: 'it is for another host name',
  CERT_HAS_EXPIRED: 'it has expired',
  CERT_NOT_YET_VALID: 'it is not valid yet',
}

/** The same failures by Node's message, for libraries that wrap the error (nodemailer's ESOCKET). */
const CERT_MESSAGES: [RegExp, string][] = [
  [/self[- ]signed certificate in certificate chain/i, CERT_CODES.SELF_SIGNED_CERT_IN_CHAIN!],
  [/self[- ]signed certificate/i, CERT_CODES.DEPTH_ZERO_SELF_SIGNED_CERT!],
  [/unable to (verify the first|get local issuer) certificate/i, CERT_CODES.UNABLE_TO_VERIFY_LEAF_SIGNATURE!],
  [/does not match certificate's altnames/i, CERT_CODES.ERR_TLS_CERT_ALTNAME_INVALID!],
  [/certificate has expired/i, CERT_CODES.CERT_HAS_EXPIRED!],
  [/certificate is not yet valid/i, CERT_CODES.CERT_NOT_YET_VALID!],
]

const TLS_CODES =
  /^(ERR_SSL_|ERR_TLS_|EPROTO$|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|CERT_|UNABLE_TO_(VERIFY|GET)_)/
const LOST =
  /^(ECONNRESET|EPIPE|NoConnection|EConnectionClosed|ETIMEDOUT_SOCKET)$|connection (not available|closed)|socket (closed|hang up)/i

function fail(code: ErrorCode, text: string): AppError {
  return new AppError(code, text)
}

function certificateError(where: string, at: Endpoint, why: string): AppError {
  return fail(
    'UNAVAILABLE',
    `The ${where} presented a certificate that cannot be trusted: ${why}. Bureau does not log in over a connection it cannot verify. ` +
      `Use the host name the certificate is for (not "${at.host}" if it names another), or have the server's administrator install a certificate from a trusted authority.`,
  )
}

/** The account an error is about, so a message names it. */
export interface MailAccountRef {
  name?: string | undefined
  user: string
}

/** One short, actionable error for any IMAP or SMTP failure; never the password, never a stack. */
export function mailError(
  error: unknown,
  protocol: 'IMAP' | 'SMTP',
  at: Endpoint,
  account: MailAccountRef = { user: '' },
): AppError {
  if (error instanceof AppError) return error
  const e = (error ?? {}) as MailFailure
  const user = account.user
  const where = `${protocol} server ${at.host}:${at.port}${account.name ? ` (account "${account.name}")` : ''}`
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
  // Nodemailer reports a failed lookup as EDNS with the resolver's "getaddrinfo ENOTFOUND host" text.
  if (
    code === 'ENOTFOUND' ||
    code === 'EAI_AGAIN' ||
    code === 'EDNS' ||
    /getaddrinfo (ENOTFOUND|EAI_AGAIN)/.test(message)
  )
    return fail('UNAVAILABLE', `Cannot connect to the ${where}: the host name is not known.`)
  const cert = CERT_CODES[code] ?? CERT_MESSAGES.find(([pattern]) => pattern.test(message))?.[1]
  if (cert) return certificateError(where, at, cert)
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
    return fail(
      'UNAVAILABLE',
      `The connection to the ${where} was lost before the command finished (${message}); nothing from it was kept. ` +
        'Try again: the next call connects anew. If it keeps failing, check that the server is up (Settings → E-mail → Test connection).',
    )
  if (
    /TRYCREATE|doesn't exist|does not exist|Mailbox not found|NONEXISTENT/i.test(
      `${server} ${e.serverResponseCode ?? ''}`,
    )
  )
    return fail('NOT_FOUND', `The ${where} has no such folder (${server}); list_folders shows the folders.`)
  return fail('HANDLER_FAILED', `The ${where} failed: ${server || message}`)
}
