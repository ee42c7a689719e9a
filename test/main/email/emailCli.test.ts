import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { runCliInProcess } from '../../support/inProcessCli'
import { type Dovecot, type SmtpRecorder, startDovecot, startSmtpRecorder } from '../../support/mailServers'
import { tempDirs } from '../../support/tempDir'
import { describeWithDovecot } from './mailHarness'

const dirs = tempDirs('bureau-email-cli-')
const PASSWORD = 'cli-password-0123456789abcdef'
let dovecot: Dovecot
let smtp: SmtpRecorder
let dataDir: string
const env = { BUREAU_API_KEY: '', BUREAU_WORKSPACE: '', BUREAU_DATA_DIR: '' }
const bureau = (args: string[], input?: string, extra: NodeJS.ProcessEnv = {}) =>
  runCliInProcess([...args, '--data-dir', dataDir], { input, env: { ...env, ...extra } })

describeWithDovecot('bureau email accounts', () => {
  beforeAll(async () => {
    dovecot = await startDovecot({ alice: PASSWORD })
    smtp = await startSmtpRecorder({
      users: { alice: PASSWORD },
      deliver: (_to, raw) => dovecot.deliver('alice', raw),
    })
    dataDir = await dirs.make()
  }, 60_000)
  afterAll(async () => {
    await smtp?.close()
    await dovecot?.stop()
    await dirs.cleanup()
  })

  const add = (name: string, extra: string[] = []) => [
    'email',
    'accounts',
    'add',
    name,
    '--imap-host',
    '127.0.0.1',
    '--imap-port',
    String(dovecot.port),
    '--no-imap-tls',
    '--smtp-host',
    '127.0.0.1',
    '--smtp-port',
    String(smtp.port),
    '--no-smtp-tls',
    '--user',
    'alice',
    '--from',
    'alice@bureau.test',
    ...extra,
  ]

  it('adds an account with the password from stdin, stores it encrypted and never prints it', async () => {
    const added = await bureau(add('work'), `${PASSWORD}\n`)
    expect(added.code).toBe(0)
    expect(added.stdout).toContain('Saved e-mail account "work" (default)')
    const files = ['settings.json', 'secrets.json'].map((f) => readFileSync(join(dataDir, f), 'utf8'))
    for (const text of files) expect(text).not.toContain(PASSWORD)
    expect(JSON.parse(files[0]!).email.accounts.work).toMatchObject({ user: 'alice', imap: { tls: false } })
    const list = await bureau(['email', 'accounts', 'list'])
    expect(list.stdout).toMatch(
      /^work \(default\)\talice\talice@bureau\.test\timap 127\.0\.0\.1:\d+\tsmtp 127\.0\.0\.1:\d+\tpassword set$/m,
    )
    const masked = await bureau(['settings', 'get'])
    expect(masked.stdout).not.toContain(PASSWORD)
    expect(JSON.parse(masked.stdout).secrets['email.accounts.work.password']).toEqual({
      set: true,
      source: 'stored',
    })
  })

  it('tests both servers, and fails with exit 1 on a wrong password', async () => {
    const ok = await bureau(['email', 'accounts', 'test', 'work'])
    expect(ok.code).toBe(0)
    expect(ok.stdout).toMatch(/^IMAP: ok: Logged in/m)
    expect(ok.stdout).toMatch(/^SMTP: ok: Logged in/m)
    expect(
      (await bureau(add('bad', ['--password-env', 'BAD_PW']), undefined, { BAD_PW: 'wrong' })).code,
    ).toBe(0)
    const bad = await bureau(['email', 'accounts', 'test', 'bad'])
    expect(bad.code).toBe(1)
    expect(bad.stdout).toContain('refused the login of "alice": wrong user name or password')
  })

  it('bureau tool runs the toolset on the default account and sends without asking', async () => {
    const listed = await bureau(['tool', 'email', 'list', '--count', '5'])
    expect(listed.code).toBe(0)
    const sent = await bureau([
      'tool',
      'email',
      'send',
      '--to',
      'alice@bureau.test',
      '--subject',
      'From the CLI',
      '--markdown',
      'Hello **there**',
    ])
    expect(sent.code, sent.stderr).toBe(0)
    expect(smtp.received.at(-1)?.raw.toString()).toContain('Subject: From the CLI')
  })

  it('refuses a password argument and a bad name; rm removes the account and its password', async () => {
    const named = await bureau(add('Bad Name'), 'x\n')
    expect(named.code).toBe(2)
    const arg = await bureau([...add('x'), '--password', PASSWORD])
    expect(arg.code).toBe(2)
    const rm = await bureau(['email', 'accounts', 'rm', 'bad'])
    expect(rm.code).toBe(0)
    const secrets = readFileSync(join(dataDir, 'secrets.json'), 'utf8')
    expect(secrets).not.toContain('email.accounts.bad.password')
    expect((await bureau(['email', 'accounts', 'rm', 'bad'])).code).toBe(1)
  })
})
