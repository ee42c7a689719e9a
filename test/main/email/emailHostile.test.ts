import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeWithDovecot, type MailHarness, openMailHarness } from './mailHarness'

// Hostile mails written here into the test Dovecot; each read ends within its test's time budget.
let h: MailHarness

const head = (subject: string, extra: string[] = []) => [
  'From: Hostile <hostile@sender.example>',
  'To: alice@bureau.test',
  `Subject: ${subject}`,
  `Message-ID: <${subject.slice(0, 40).replace(/\W/g, '')}@sender.example>`,
  'MIME-Version: 1.0',
  ...extra,
]

/** A header value folded into short lines (unfolding gives back exactly `value`). */
const folded = (value: string) => value.replace(/(.{60,70}?) /g, '$1\r\n ')

const DEPTH = 100_000
const LONG_SUBJECT = `Long ${'abcd '.repeat(40_000)}`.trim()

interface Read {
  subject: string
  to: string[]
  attachments: { name: string }[]
  attachment_count: number
  summarised?: string
  notes?: string[]
  content: string
}
interface Listed {
  messages: { uid: number; subject: string; to: string[]; attachments: string[]; attachment_count: number }[]
}

const uidOf = async (start: string) => {
  const page = await h.call<Listed>('email_list', { count: 100 })
  return page.messages.find((m) => m.subject.startsWith(start))!.uid
}

describeWithDovecot('email: hostile mails', () => {
  beforeAll(async () => {
    h = await openMailHarness({ seed: false })
    h.dovecot.deliver(
      'alice',
      [
        ...head('Deep nest', ['Content-Type: text/html; charset=utf-8']),
        '',
        `<html><body><p>Before the nest.</p>${'<div>'.repeat(DEPTH)}Inside the nest.${'</div>'.repeat(DEPTH)}<p>After the nest.</p></body></html>`,
        '',
      ].join('\r\n'),
    )
    h.dovecot.deliver(
      'alice',
      [
        ...head('Three thousand attachments', ['Content-Type: multipart/mixed; boundary="b"']),
        '',
        '--b',
        'Content-Type: text/plain; charset=utf-8',
        '',
        'The body of the mail with many files.',
        ...Array.from({ length: 3_000 }, (_, i) => [
          '--b',
          `Content-Type: application/octet-stream; name="f-${i + 1}.bin"`,
          `Content-Disposition: attachment; filename="f-${i + 1}.bin"`,
          'Content-Transfer-Encoding: base64',
          '',
          'AAEC',
        ]).flat(),
        '--b--',
        '',
      ].join('\r\n'),
    )
    const recipients = Array.from({ length: 2_000 }, (_, i) => `r${i}@bureau.test`).join(', ')
    h.dovecot.deliver(
      'alice',
      [
        ...head(folded(LONG_SUBJECT), [`Cc: ${folded(recipients)}`, 'Content-Type: text/plain']),
        '',
        'A short body under a long subject.',
        '',
      ].join('\r\n'),
    )
  }, 60_000)
  afterAll(async () => h?.close())

  it('a mail nesting 100,000 <div>s reads quickly with its text and a note that the nest was flattened', async () => {
    const read = await h.call<Read>('email_read', { uid: await uidOf('Deep nest') })
    expect(read.content).toContain('Before the nest.')
    expect(read.content).toContain('Inside the nest.')
    expect(read.content).toContain('After the nest.')
    expect(read.notes?.join('\n')).toMatch(
      /nests elements more than 256 deep: 99,\d{3} deeper elements were unwrapped/,
    )
    expect(read.content).toContain('Note: the HTML nests elements more than 256 deep')
  }, 30_000)

  it('a mail with 3,000 attachments is read: its text, 50 names listed, the count and a note', async () => {
    const uid = await uidOf('Three thousand attachments')
    const listed = (await h.call<Listed>('email_list', { count: 100 })).messages.find((m) => m.uid === uid)!
    expect(listed.attachment_count).toBe(3_000)
    expect(listed.attachments).toHaveLength(20)
    const read = await h.call<Read>('email_read', { uid })
    expect(read.content).toContain('The body of the mail with many files.')
    expect(read.attachment_count).toBe(3_000)
    expect(read.attachments).toHaveLength(50)
    expect(read.attachments[49]?.name).toBe('f-50.bin')
    expect(read.summarised).toMatch(
      /the message has 3,00\d MIME parts, more than the 1,000 a message is parsed whole with: only the start of its text was read/,
    )
    expect(read.notes).toContain(
      '50 of 3,000 attachments are listed; save_attachments saves them all, or those named',
    )
    const saved = await h.call<{ saved: { path: string; bytes: number }[] }>('email_save_attachments', {
      uid,
      to: '/many',
      names: ['f-3000.bin'],
    })
    expect(saved.saved).toEqual([{ name: 'f-3000.bin', path: '/many/f-3000.bin', bytes: 3 }])
  }, 60_000)

  it('a 200,000-character subject and 2,000 recipients are clipped with a note in list and read', async () => {
    const listed = await h.call<Listed>('email_list', { count: 100 })
    const summary = listed.messages.find((m) => m.subject.startsWith('Long abcd'))!
    expect(summary.subject).toBe(
      `${LONG_SUBJECT.slice(0, 1_000)}… [subject clipped: 200,004 characters in all]`,
    )
    expect(JSON.stringify(listed).length).toBeLessThan(20_000)
    const read = await h.call<Read & { cc: string[] }>('email_read', { uid: summary.uid })
    expect(read.subject).toBe(summary.subject)
    expect(read.cc).toHaveLength(101)
    expect(read.cc.at(-1)).toBe('… [1,900 more addresses not shown]')
    expect(read.content).toContain('A short body under a long subject.')
    expect(JSON.stringify(read).length).toBeLessThan(30_000)
  }, 30_000)

  it('sent mail carries no javascript:, data: or file: links or pictures in its HTML part', async () => {
    const markdown = [
      '[click](javascript:alert(1))',
      '[CLICK](JaVaScRiPt:alert(1))',
      '<javascript:alert(2)>',
      '[entity](&#106;avascript:alert(3))',
      '[ref][r]',
      '![secret](file:///etc/passwd)',
      '[local](file:///etc/passwd)',
      '![pixel](data:image/png;base64,AAAA)',
      '[page](data:text/html,<script>alert(4)</script>)',
      '[vb](vbscript:msgbox)',
      '[ok](https://example.com/report?a=1)',
      '![logo](https://example.com/logo.png)',
      '[write](mailto:marta@example.com)',
      '',
      '[r]: javascript:alert(5)',
    ].join('\n\n')
    await h.call('email_send', { to: ['marta@example.com'], subject: 'Links', markdown })
    const { simpleParser } = await import('mailparser')
    const sent = await simpleParser(h.smtp.received.at(-1)!.raw)
    const html = String(sent.html)
    const targets = [...html.matchAll(/\s(?:href|src)\s*=\s*"([^"]*)"/gi)].map((m) => m[1])
    expect(targets).toEqual([
      'https://example.com/report?a=1',
      'https://example.com/logo.png',
      'mailto:marta@example.com',
    ])
    expect(html).not.toMatch(/<(?:script|iframe|object)/i)
    expect(html).toContain('<a href="https://example.com/report?a=1">ok</a>')
    expect(html).toContain('<img src="https://example.com/logo.png" alt="logo">')
    expect(html).toContain('<a href="mailto:marta@example.com">write</a>')
    for (const text of ['click', 'CLICK', 'entity', 'ref', 'secret', 'local', 'pixel', 'page', 'vb'])
      expect(html).toContain(`<p>${text}</p>`)
  }, 30_000)
})
