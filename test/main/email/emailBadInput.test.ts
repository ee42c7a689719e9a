import { readdirSync, readFileSync } from 'node:fs'
import { createServer as createTlsServer } from 'node:net'
import { connect as connectTls } from 'node:tls'
import { afterAll, beforeAll, expect } from 'vitest'
import { testEmailAccount } from '../../../src/main/email'
import { mailError } from '../../../src/main/email/mailErrors'
import { EmailSettings } from '../../../src/shared/settings'
import { fixturePath } from '../../support/fixtures'
import { startCutProxy, startTlsFront } from '../../support/mailProxies'
import { itFast as it, itSoak } from '../../support/tier'
import { account, describeWithDovecot, type MailHarness, openMailHarness, PASSWORD } from './mailHarness'

let h: MailHarness
const MIB = 1024 * 1024

function bigMail(subject: string, parts: string[]): string {
  return [
    'From: Bulk <bulk@sender.example>',
    'To: alice@bureau.test',
    `Subject: ${subject}`,
    `Message-ID: <${subject.replace(/\W/g, '')}@sender.example>`,
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="b"',
    '',
    ...parts.flatMap((part) => ['--b', part]),
    '--b--',
    '',
  ].join('\r\n')
}

const attachment = (name: string, bytes: number) =>
  `Content-Type: application/octet-stream\r\nContent-Disposition: attachment; filename="${name}"\r\nContent-Transfer-Encoding: base64\r\n\r\n${Buffer.alloc(bytes, 7).toString('base64').replace(/.{76}/g, '$&\r\n')}`

const uidOf = async (subject: string) => {
  const page = await h.call<{ messages: { uid: number; subject: string }[] }>('email_search', {
    query: subject,
  })
  return page.messages.find((m) => m.subject === subject)!.uid
}

describeWithDovecot('email: bad input and limits against real servers', () => {
  beforeAll(async () => {
    h = await openMailHarness({ seed: false })
    h.dovecot.deliver(
      'alice',
      bigMail('Two hundred attachments', [
        'Content-Type: text/plain\r\n\r\nSee the files.',
        ...Array.from({ length: 200 }, (_, i) => attachment(`scan-${i + 1}.bin`, 64)),
      ]),
    )
    const line = `${'x'.repeat(75)}\r\n`
    h.dovecot.deliver(
      'alice',
      bigMail('Huge body', [
        `Content-Type: text/plain\r\n\r\nStart of the huge body.\r\n${line.repeat((30 * MIB) / line.length)}`,
      ]),
    )
    h.dovecot.deliver(
      'alice',
      bigMail('Big attachment', [
        'Content-Type: text/plain\r\n\r\nA big file.',
        attachment('big.bin', 3 * MIB),
      ]),
    )
  }, 60_000)
  afterAll(async () => h?.close())

  it('a wrong password is a clear UNAUTHORIZED error that names the user and not the password', async () => {
    h.passwords.set('work', 'wrong-password')
    const result = await h.attempt('email_list')
    h.passwords.set('work', 'alice-secret')
    expect(result).toMatchObject({ ok: false, code: 'UNAUTHORIZED' })
    if (!result.ok) {
      expect(result.error).toContain('refused the login of "alice": wrong user name or password')
      expect(result.error).not.toContain('wrong-password')
    }
  })

  it('Test connection reports IMAP and SMTP separately', async () => {
    const good = await testEmailAccount(h.env, 'work', h.settings.accounts.work!, undefined)
    expect(good.imap).toMatchObject({ ok: true })
    expect(good.smtp).toMatchObject({ ok: true })
    const bad = await testEmailAccount(h.env, 'work', h.settings.accounts.work!, 'nope')
    expect(bad.imap.ok).toBe(false)
    expect(bad.imap.message).toMatch(/IMAP server 127\.0\.0\.1:\d+ \(account "work"\) refused the login/)
    expect(bad.smtp.ok).toBe(false)
    expect(bad.smtp.message).toMatch(/SMTP server 127\.0\.0\.1:\d+ \(account "work"\) refused the login/)
  })

  it('TLS against a plain port fails with a TLS error that says what to change', async () => {
    const tls = account(h.dovecot.port, h.smtp.port, {})
    tls.imap.tls = true
    tls.smtp.tls = true
    const result = await testEmailAccount(h.env, 'tls', tls, 'alice-secret')
    expect(result.imap.ok).toBe(false)
    expect(result.imap.message).toMatch(/TLS with the IMAP server .* failed/)
    expect(result.smtp.ok).toBe(false)
    expect(result.smtp.message).toMatch(
      /TLS with the SMTP server .* failed|SMTP server .* (was lost|did not answer)/,
    )
  })

  it('a refused connection and a missing password are clear errors', async () => {
    const closed = await new Promise<number>((resolve) => {
      const server = createTlsServer()
      server.listen(0, '127.0.0.1', () => {
        const port = (server.address() as { port: number }).port
        server.close(() => resolve(port))
      })
    })
    const result = await testEmailAccount(h.env, 'gone', account(closed, closed), 'x')
    expect(result.imap.message).toMatch(/connection refused/)
    const none = await testEmailAccount(h.env, 'nobody', account(1, 1), undefined)
    expect(none.imap.message).toBe('The account needs a password.')
  })

  it('an unknown account and no accounts at all are NOT_FOUND with what to do', async () => {
    expect(await h.attempt('email_list', { account: 'home' })).toMatchObject({ ok: false, code: 'NOT_FOUND' })
    const saved = h.settings.accounts
    Object.assign(h.settings, EmailSettings.parse({}))
    const none = await h.attempt('email_list')
    Object.assign(h.settings, { accounts: saved })
    expect(none).toMatchObject({ ok: false, code: 'NOT_FOUND' })
    if (!none.ok) expect(none.error).toContain('bureau email accounts add')
  })

  itSoak('a mail with 200 attachments lists 20 names in list and 50 in read, with the count', async () => {
    const uid = await uidOf('Two hundred attachments')
    const page = await h.call<{ messages: { attachments: string[]; attachment_count: number }[] }>(
      'email_list',
    )
    const listed = page.messages.find((m) => m.attachment_count === 200)!
    expect(listed.attachments).toHaveLength(20)
    const read = await h.call<{ attachments: unknown[]; attachment_count: number; content: string }>(
      'email_read',
      { uid },
    )
    expect(read.attachments).toHaveLength(50)
    expect(read.attachment_count).toBe(200)
    expect(read.content.length).toBeLessThan(20_000)
    const saved = await h.call<{ saved: { path: string }[] }>('email_save_attachments', {
      uid,
      to: '/scans',
      names: ['scan-7.bin', 'scan-200.bin'],
    })
    expect(saved.saved.map((s) => s.path)).toEqual(['/scans/scan-7.bin', '/scans/scan-200.bin'])
  })

  it('a 30 MB body is summarised: the start of its text only, never the whole body', async () => {
    const read = await h.call<{ summarised?: string; content: string; pages: number }>('email_read', {
      uid: await uidOf('Huge body'),
    })
    expect(read.summarised).toMatch(/over the 10485760-byte limit/)
    expect(read.content).toContain('Start of the huge body.')
    expect(read.content.length).toBeLessThan(13_000)
    expect(read.pages).toBeLessThanOrEqual(Math.ceil((512 * 1024) / 12_000) + 1)
  })

  it('an attachment over the limit is refused and listed, nothing written', async () => {
    h.settings.maxAttachmentBytes = 1 * MIB
    const result = await h.call<{ saved: unknown[]; skipped: { name: string; reason: string }[] }>(
      'email_save_attachments',
      {
        uid: await uidOf('Big attachment'),
        to: '/big',
      },
    )
    h.settings.maxAttachmentBytes = 25 * MIB
    expect(result.saved).toEqual([])
    expect(result.skipped[0]).toMatchObject({ name: 'big.bin' })
    expect(result.skipped[0]!.reason).toMatch(/over the 1048576-byte limit/)
    expect(await h.workspace.exists('/big/big.bin')).toBe(false)
  })

  it('refuses to send a workspace file over the limit and a path outside the workspace', async () => {
    await h.workspace.writeFile('/out/large.bin', Buffer.alloc(2 * MIB))
    h.settings.maxAttachmentBytes = 1 * MIB
    const large = await h.attempt('email_send', {
      to: ['a@b.example'],
      subject: 's',
      markdown: 'm',
      attachments: ['/out/large.bin'],
    })
    h.settings.maxAttachmentBytes = 25 * MIB
    expect(large).toMatchObject({ ok: false, code: 'TOO_LARGE' })
    const outside = await h.attempt('email_send', {
      to: ['a@b.example'],
      subject: 's',
      markdown: 'm',
      attachments: ['/../etc/passwd'],
    })
    expect(outside.ok).toBe(false)
    const address = await h.attempt('email_send', { to: ['not an address'], subject: 's', markdown: 'm' })
    expect(address).toMatchObject({ ok: false, code: 'VALIDATION_FAILED' })
    expect(h.smtp.received).toHaveLength(0)
  })

  it('a self-signed certificate is refused for IMAP and SMTP with what to do, before any login', async () => {
    const cert = readFileSync(fixturePath('email', 'tls', 'self-signed.crt'))
    const key = readFileSync(fixturePath('email', 'tls', 'self-signed.key'))
    const imap = await startTlsFront(h.dovecot.port, cert, key)
    const smtp = await startTlsFront(h.smtp.port, cert, key)
    const tls = account(imap.port, smtp.port)
    tls.imap.tls = true
    tls.smtp.tls = true
    try {
      const result = await testEmailAccount(h.env, 'selfsigned', tls, PASSWORD)
      for (const [protocol, check] of [
        ['IMAP', result.imap],
        ['SMTP', result.smtp],
      ] as const) {
        expect(check.ok).toBe(false)
        expect(check.message).toMatch(
          new RegExp(
            `^The ${protocol} server 127\\.0\\.0\\.1:\\d+ \\(account "selfsigned"\\) presented a certificate that cannot be trusted: it is self-signed\\. Bureau does not log in`,
          ),
        )
      }
      h.settings.accounts.selfsigned = tls
      h.passwords.set('selfsigned', PASSWORD)
      const listed = await h.attempt('email_list', { account: 'selfsigned' })
      expect(listed).toMatchObject({ ok: false, code: 'UNAVAILABLE' })
      if (!listed.ok) expect(listed.error).toContain('cannot be trusted: it is self-signed')
      expect(h.smtp.received).toHaveLength(0)
      // A certificate that is trusted but names another host: the real handshake error, mapped.
      const wrongHost = await new Promise<unknown>((resolve) => {
        const socket = connectTls({ port: imap.port, host: '127.0.0.1', ca: cert })
        socket.once('secureConnect', () => resolve(socket.destroy()))
        socket.once('error', resolve)
      })
      expect((wrongHost as { code?: string }).code).toBe('ERR_TLS_CERT_ALTNAME_INVALID')
      expect(mailError(wrongHost, 'IMAP', tls.imap, { name: 'selfsigned', user: 'alice' }).message).toMatch(
        /cannot be trusted: it is for another host name\. .*Use the host name the certificate is for/,
      )
    } finally {
      delete h.settings.accounts.selfsigned
      await imap.close()
      await smtp.close()
    }
  })

  it('the server gone mid-fetch: a clear error naming the account, nothing half-saved, the next call reconnects', async () => {
    const uid = await uidOf('Big attachment')
    const proxy = await startCutProxy(h.dovecot.port)
    h.settings.accounts.cut = account(proxy.port, h.smtp.port)
    h.passwords.set('cut', PASSWORD)
    try {
      await h.call('email_list', { account: 'cut' })
      proxy.cutAfter(256 * 1024)
      const save = await h.attempt('email_save_attachments', { account: 'cut', uid, to: '/cut' })
      expect(proxy.cuts()).toBe(1)
      expect(save).toMatchObject({ ok: false, code: 'UNAVAILABLE' })
      if (!save.ok) {
        expect(save.error).toMatch(
          /connection to the IMAP server 127\.0\.0\.1:\d+ \(account "cut"\) was lost before the command finished/,
        )
        expect(save.error).toContain('Try again: the next call connects anew')
      }
      expect(await h.workspace.exists('/cut/big.bin')).toBe(false)
      proxy.cutAfter(128 * 1024)
      const read = await h.attempt('email_read', { account: 'cut', uid })
      expect(proxy.cuts()).toBe(2)
      expect(read).toMatchObject({ ok: false, code: 'UNAVAILABLE' })
      proxy.heal()
      const again = await h.call<{ saved: { path: string; bytes: number }[] }>('email_save_attachments', {
        account: 'cut',
        uid,
        to: '/cut',
      })
      expect(again.saved).toEqual([{ name: 'big.bin', path: '/cut/big.bin', bytes: 3 * MIB }])
      expect(readFileSync(`${h.root}/cut/big.bin`).equals(Buffer.alloc(3 * MIB, 7))).toBe(true)
      expect(readdirSync(h.outside)).toEqual([])
    } finally {
      delete h.settings.accounts.cut
      await proxy.close()
    }
  })

  it('the server going away mid-session is a clear error', async () => {
    await h.call('email_list')
    h.dovecot.kill()
    const gone = await h.attempt('email_read', { uid: 1 })
    expect(gone.ok).toBe(false)
    if (!gone.ok)
      expect(gone.error).toMatch(/IMAP server 127\.0\.0\.1:\d+ .*(lost|refused|did not answer|failed)/)
    expect(readdirSync(h.outside)).toEqual([])
  })
})
