// Real mail servers for the e-mail tests, on 127.0.0.1, started and stopped by the tests themselves:
// Debian's Dovecot (the launcher the e-mail eval tasks use too) and an SMTP server (smtp-server) that
// delivers into its maildir.
import { freePort } from '../../src/main/eval/mail/dovecot'

export {
  DOVECOT,
  DOVECOT_MISSING,
  DOVECOT_REQUIRED,
  type Dovecot,
  freePort,
  startDovecot,
} from '../../src/main/eval/mail/dovecot'

export interface SmtpRecorder {
  port: number
  received: { from: string; to: string[]; raw: Buffer }[]
  close(): Promise<void>
}

/** An SMTP server that checks the login, records every message and delivers it into Dovecot. */
export async function startSmtpRecorder(options: {
  users: Record<string, string>
  deliver: (to: string, raw: Buffer) => void
}): Promise<SmtpRecorder> {
  const { SMTPServer } = await import('smtp-server')
  const received: SmtpRecorder['received'] = []
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: false,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username && options.users[auth.username] === auth.password)
        callback(null, { user: auth.username })
      else callback(new Error('Invalid username or password'))
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        const raw = Buffer.concat(chunks)
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : ''
        const to = session.envelope.rcptTo.map((r) => r.address)
        received.push({ from, to, raw })
        for (const address of to) options.deliver(address, raw)
        callback()
      })
    },
  })
  const port = await freePort()
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  return { port, received, close: () => new Promise((resolve) => server.close(() => resolve())) }
}
