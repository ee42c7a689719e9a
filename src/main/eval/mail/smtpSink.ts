import type { SMTPServer } from 'smtp-server'
import { freePort } from './dovecot'

/** A maildir user and one of its folders ("INBOX", "Sent", a person's name). */
export interface MailPlace {
  user: string
  folder: string
}

export interface SmtpSinkOptions {
  /** Files one message into a user's maildir folder, creating it when needed (`Dovecot.deliver`). */
  deliver(user: string, raw: Buffer, folder: string): void
  /** Where a message to `address` is filed; undefined: no such mailbox, the recipient is refused (550). */
  inboxOf(address: string): MailPlace | undefined
  /**
   * Where the sender's copy is filed (usually their "Sent"); undefined: no copy. Bureau's own e-mail
   * tool appends its copy to an existing Sent folder itself, so give undefined for the account Bureau
   * sends from, or that Sent holds the message twice.
   */
  sentOf(address: string): MailPlace | undefined
  /** The password every login must give (any user name); absent: any login is accepted. */
  password?: string
  /** Largest message accepted, in bytes (default 25 MB). */
  maxBytes?: number
}

/** One message the sink filed, and where. */
export interface FiledMessage {
  from: string
  to: string[]
  filed: MailPlace[]
  bytes: number
}

export interface SmtpSink {
  port: number
  host: '127.0.0.1'
  /** Every message accepted, in order. */
  messages: FiledMessage[]
  close(): Promise<void>
}

const DEFAULT_MAX_BYTES = 25 * 1024 * 1024

function refusal(message: string, responseCode: number): Error {
  return Object.assign(new Error(message), { responseCode })
}

/**
 * An SMTP server on a free port of 127.0.0.1 that delivers nothing onwards: each message is filed into
 * each recipient's folder and the sender's copy into their Sent folder of the eval's maildir, so checks
 * read real IMAP state. Plain SMTP with AUTH PLAIN/LOGIN (loopback only, no TLS).
 */
export async function startSmtpSink(options: SmtpSinkOptions): Promise<SmtpSink> {
  const { SMTPServer } = await import('smtp-server')
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES
  const messages: FiledMessage[] = []
  const server: SMTPServer = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: true,
    logger: false,
    banner: 'Bureau eval SMTP sink',
    size: maxBytes,
    onAuth(auth, _session, callback) {
      if (options.password === undefined || auth.password === options.password)
        callback(null, { user: auth.username })
      else callback(refusal('Invalid username or password', 535))
    },
    onRcptTo(address, _session, callback) {
      if (options.inboxOf(address.address)) callback()
      else callback(refusal(`No mailbox for <${address.address}> in this eval`, 550))
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('error', (error: Error) => callback(error))
      stream.on('end', () => {
        if (stream.sizeExceeded) {
          callback(refusal(`Message larger than ${maxBytes} bytes`, 552))
          return
        }
        const raw = Buffer.concat(chunks)
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : ''
        const to = session.envelope.rcptTo.map((recipient) => recipient.address)
        const places = [
          ...to.map((address) => options.inboxOf(address)),
          from ? options.sentOf(from) : undefined,
        ]
        const filed: MailPlace[] = []
        try {
          for (const place of places) {
            if (!place || filed.some((f) => f.user === place.user && f.folder === place.folder)) continue
            options.deliver(place.user, raw, place.folder)
            filed.push(place)
          }
        } catch (error) {
          callback(refusal(`Could not file the message: ${(error as Error).message}`, 451))
          return
        }
        messages.push({ from, to, filed, bytes: raw.length })
        callback()
      })
    },
  })
  const port = await freePort()
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  // A connection that breaks off mid-command must not take the eval down.
  server.on('error', () => {})
  return {
    port,
    host: '127.0.0.1',
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
