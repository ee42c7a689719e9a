import { afterAll, beforeAll, expect, it } from 'vitest'
import type { EmailEnvironment } from '../../../src/main/email'
import { type FolderWatch, watchMailFolder } from '../../../src/main/email'
import { EmailSettings } from '../../../src/shared/settings'
import { type Dovecot, startDovecot } from '../../support/mailServers'
import { describeNeeding } from '../../support/requirements'

const PASSWORD = 'alice-secret'
const message = (from: string, subject: string) =>
  Buffer.from(
    `From: ${from}\r\nTo: alice@bureau.test\r\nSubject: ${subject}\r\nDate: Mon, 7 Dec 2026 10:00:00 +0000\r\nMessage-ID: <${Math.random().toString(36).slice(2)}@test>\r\n\r\nHello.\r\n`,
  )

describeNeeding(['dovecot'], 'the mail trigger against Dovecot', () => {
  let dovecot: Dovecot
  let env: EmailEnvironment
  beforeAll(async () => {
    dovecot = await startDovecot({ alice: PASSWORD })
    dovecot.deliver('alice', message('Old <old@client.example>', 'Invoice before the watch'))
    const settings = EmailSettings.parse({
      accounts: {
        work: {
          imap: { host: '127.0.0.1', port: dovecot.port, tls: false },
          smtp: { host: '127.0.0.1', port: 1, tls: false },
          user: 'alice',
          from: 'alice@bureau.test',
          displayName: 'Alice',
        },
      },
    })
    env = {
      settings: () => settings,
      password: async () => PASSWORD,
      timeouts: { connectMs: 5_000, socketMs: 10_000 },
    }
  }, 60_000)
  afterAll(async () => dovecot?.stop())

  for (const mode of ['idle', 'poll'] as const) {
    it(`a new message matching the rule is reported once (${mode}); others and older ones are not`, async () => {
      const seen: { from: string; subject: string }[] = []
      const watch: FolderWatch = await watchMailFolder(env, {
        rule: { folder: 'INBOX', from: 'client.example', subject: 'invoice' },
        onMail: (mail) => seen.push(mail),
        onError: (error) => seen.push({ from: 'error', subject: error }),
        pollMs: 200,
        forcePoll: mode === 'poll',
      })
      try {
        expect(watch.mode).toBe(mode)
        dovecot.deliver('alice', message('Spam <spam@other.example>', 'Invoice from a stranger'))
        dovecot.deliver('alice', message('Anna <anna@client.example>', `Invoice 2026-12 (${mode})`))
        const deadline = Date.now() + 15_000
        while (seen.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
        await new Promise((r) => setTimeout(r, 600))
        expect(seen).toEqual([expect.objectContaining({ subject: `Invoice 2026-12 (${mode})` })])
        expect(seen[0]?.from).toContain('anna@client.example')
      } finally {
        await watch.close()
      }
    }, 30_000)
  }

  it('a wrong folder is said at once', async () => {
    await expect(
      watchMailFolder(env, {
        rule: { folder: 'No/Such/Folder' },
        onMail: () => undefined,
        onError: () => undefined,
      }),
    ).rejects.toThrow()
  })
})
