import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { ImapFlow } from 'imapflow'
import nodemailer from 'nodemailer'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { loadEmailToolset } from '../../../src/main/email'
import { type Dovecot, startDovecot } from '../../../src/main/eval/mail/dovecot'
import { type MailPlace, type SmtpSink, startSmtpSink } from '../../../src/main/eval/mail/smtpSink'
import { createToolSession, invoke } from '../../../src/main/tools'
import { createWorkspace } from '../../../src/main/workspace'
import { EmailSettings } from '../../../src/shared/settings'
import { describeNeeding } from '../../support/requirements'
import { tempDirs } from '../../support/tempDir'

const PASSWORD = 'eval-secret'
const PEOPLE = ['alice', 'bob', 'dave']
const dirs = tempDirs('bureau-smtp-sink-')
let dovecot: Dovecot
let sink: SmtpSink
/** Whose Sent the sink leaves alone: Bureau's own account files its copy itself. */
const bureauSends = new Set<string>()

function personOf(address: string): string | undefined {
  const [local, domain] = address.toLowerCase().split('@')
  return domain === 'office.test' && local && PEOPLE.includes(local) ? local : undefined
}

const inboxOf = (address: string): MailPlace | undefined => {
  const user = personOf(address)
  return user ? { user, folder: 'INBOX' } : undefined
}

/** Subjects in a user's folder, as IMAP (Dovecot) lists them. */
async function subjects(user: string, folder: string): Promise<string[]> {
  const client = new ImapFlow({
    host: '127.0.0.1',
    port: dovecot.port,
    secure: false,
    auth: { user, pass: PASSWORD },
    logger: false,
  })
  await client.connect()
  try {
    const list = await client.list()
    if (!list.some((box) => box.path === folder)) return []
    const lock = await client.getMailboxLock(folder)
    try {
      const found: string[] = []
      for await (const message of client.fetch('1:*', { envelope: true }))
        found.push(message.envelope?.subject ?? '')
      return found
    } finally {
      lock.release()
    }
  } finally {
    await client.logout()
  }
}

const transport = (password = PASSWORD) =>
  nodemailer.createTransport({
    host: '127.0.0.1',
    port: sink.port,
    secure: false,
    ignoreTLS: true,
    auth: { user: 'anyone', pass: password },
  })

describeNeeding(['dovecot'], 'eval SMTP sink files mail into Dovecot', () => {
  beforeAll(async () => {
    dovecot = await startDovecot({}, { anyUserPassword: PASSWORD })
    for (const person of PEOPLE) dovecot.maildir(person)
    sink = await startSmtpSink({
      deliver: (user, raw, folder) => dovecot.deliver(user, raw, folder),
      inboxOf,
      sentOf: (address) => {
        const user = personOf(address)
        return user && !bureauSends.has(user) ? { user, folder: 'Sent' } : undefined
      },
      password: PASSWORD,
    })
  }, 60_000)
  afterAll(async () => {
    await sink?.close()
    await dovecot?.stop()
    await dirs.cleanup()
  })

  it('files a message into each recipient INBOX and the sender Sent, as IMAP reads them', async () => {
    const info = await transport().sendMail({
      from: 'bob@office.test',
      to: 'alice@office.test',
      cc: 'dave@office.test',
      subject: 'Party invitation',
      text: 'You are invited on Saturday.',
    })
    expect(info.accepted).toEqual(['alice@office.test', 'dave@office.test'])
    expect(await subjects('alice', 'INBOX')).toEqual(['Party invitation'])
    expect(await subjects('dave', 'INBOX')).toEqual(['Party invitation'])
    expect(await subjects('bob', 'Sent')).toEqual(['Party invitation'])
    expect(await subjects('bob', 'INBOX')).toEqual([])
    expect(sink.messages.at(-1)).toMatchObject({
      from: 'bob@office.test',
      to: ['alice@office.test', 'dave@office.test'],
      filed: [
        { user: 'alice', folder: 'INBOX' },
        { user: 'dave', folder: 'INBOX' },
        { user: 'bob', folder: 'Sent' },
      ],
    })
  })

  it('refuses an address with no mailbox (550) and a wrong password (535), filing nothing for them', async () => {
    const before = sink.messages.length
    await expect(
      transport().sendMail({ from: 'bob@office.test', to: 'carol@elsewhere.test', subject: 'x', text: 'x' }),
    ).rejects.toThrow(/550.*No mailbox for <carol@elsewhere\.test>/)
    const partly = await transport().sendMail({
      from: 'bob@office.test',
      to: ['carol@elsewhere.test', 'dave@office.test'],
      subject: 'Only Dave',
      text: 'x',
    })
    expect(partly.rejected).toEqual(['carol@elsewhere.test'])
    expect(await subjects('dave', 'INBOX')).toEqual(['Party invitation', 'Only Dave'])
    await expect(
      transport('wrong').sendMail({
        from: 'bob@office.test',
        to: 'dave@office.test',
        subject: 'y',
        text: 'y',
      }),
    ).rejects.toThrow(/535/)
    expect(sink.messages.length).toBe(before + 1)
  })

  it("takes Bureau's own e-mail send: the recipient gets it, the sender's Sent holds one copy", async () => {
    bureauSends.add('alice')
    dovecot.maildir('alice', 'Sent')
    const root = join(await dirs.make(), 'workspace')
    await mkdir(root)
    const workspace = createWorkspace({ root })
    const endpoint = { host: '127.0.0.1', tls: false }
    const settings = EmailSettings.parse({
      accounts: {
        work: {
          imap: { ...endpoint, port: dovecot.port },
          smtp: { ...endpoint, port: sink.port },
          user: 'alice',
          from: 'alice@office.test',
          displayName: 'Alice',
        },
      },
    })
    const toolset = await loadEmailToolset({
      settings: () => settings,
      password: async () => PASSWORD,
      timeouts: { connectMs: 5_000, socketMs: 10_000 },
    })
    const session = createToolSession({ toolsets: [toolset], workspace })
    try {
      const sent = await invoke(session, 'email_send', {
        to: ['bob@office.test'],
        subject: 'Quarterly numbers',
        markdown: 'The **numbers** are in.',
      })
      if (!sent.ok) expect.fail(sent.error)
      expect(sent.value).toMatchObject({ accepted: ['bob@office.test'], rejected: [], saved_to: 'Sent' })
      expect(await subjects('bob', 'INBOX')).toEqual(['Quarterly numbers'])
      expect(await subjects('alice', 'Sent')).toEqual(['Quarterly numbers'])
    } finally {
      await session.dispose()
      await workspace.close()
    }
  })
})
