import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { runCliInProcess } from '../../support/inProcessCli'
import { type Radicale, startRadicale } from '../../support/radicale'
import { describeNeeding } from '../../support/requirements'
import { tempDirs } from '../../support/tempDir'

const dirs = tempDirs('bureau-calendar-cli-')
const PASSWORD = 'cal-cli-password-0123456789'
let radicale: Radicale
let dataDir: string
let workspace: string
const env = { BUREAU_API_KEY: '', BUREAU_WORKSPACE: '', BUREAU_DATA_DIR: '' }
const bureau = (args: string[], input?: string, extra: NodeJS.ProcessEnv = {}) =>
  runCliInProcess([...args, '--data-dir', dataDir], { input, env: { ...env, ...extra } })
const add = (name: string, extra: string[] = []) => [
  'calendar',
  'accounts',
  'add',
  name,
  '--url',
  radicale.url,
  '--user',
  'alice',
  ...extra,
]

describeNeeding(['radicale'], 'bureau calendar accounts', () => {
  beforeAll(async () => {
    radicale = await startRadicale({ alice: PASSWORD })
    await radicale.makeCalendar('alice', 'work', 'Work')
    dataDir = await dirs.make()
    workspace = await dirs.make()
  }, 60_000)
  afterAll(async () => {
    await radicale?.stop()
    await dirs.cleanup()
  })

  it('adds an account with the password from stdin, stores it encrypted and never prints it', async () => {
    const added = await bureau(add('work'), `${PASSWORD}\n`)
    expect(added.code, added.stderr).toBe(0)
    expect(added.stdout).toContain('Saved calendar account "work"')
    const files = ['settings.json', 'secrets.json'].map((f) => readFileSync(join(dataDir, f), 'utf8'))
    for (const text of files) expect(text).not.toContain(PASSWORD)
    expect(JSON.parse(files[0]!).calendar.accounts.work).toEqual({ url: radicale.url, user: 'alice' })
    const list = await bureau(['calendar', 'accounts', 'list'])
    expect(list.stdout).toBe(`work\talice\t${radicale.url}\tpassword set\n`)
  })

  it('tests the account (its calendars listed), and fails with exit 1 naming the account on a wrong password', async () => {
    const ok = await bureau(['calendar', 'accounts', 'test', 'work'])
    expect(ok.code, ok.stderr).toBe(0)
    expect(ok.stdout).toMatch(/^CalDAV: ok: Logged in to 127\.0\.0\.1:\d+; 1 calendar: Work\.$/m)
    expect(
      (await bureau(add('bad', ['--password-env', 'BAD_PW']), undefined, { BAD_PW: 'wrong' })).code,
    ).toBe(0)
    const bad = await bureau(['calendar', 'accounts', 'test', 'bad'])
    expect(bad.code).toBe(1)
    expect(bad.stdout).toContain('calendar account "bad" refused user "alice" and its password')
  })

  it('bureau tool writes to the CalDAV calendar without asking, and reads it back', async () => {
    const created = await bureau([
      'tool',
      '--workspace',
      workspace,
      'calendar',
      'create_event',
      '--calendar',
      'work:Work',
      '--summary',
      'From the CLI',
      '--start',
      '2026-07-14T10:00',
      '--time_zone',
      'Europe/Paris',
    ])
    expect(created.code, created.stderr).toBe(0)
    expect(created.stdout).toContain('2026-07-14T08:00:00Z')
    const stored = await radicale.report('alice', 'work')
    expect(stored.join('')).toContain('SUMMARY:From the CLI')
  })

  it('refuses a bad name and an address with a password in it; rm removes the account and its password', async () => {
    expect((await bureau(add('Bad Name'), 'x\n')).code).toBe(2)
    const inUrl = await bureau(
      ['calendar', 'accounts', 'add', 'x', '--url', 'https://me:pw@dav.example.com/', '--user', 'me'],
      'x\n',
    )
    expect(inUrl.code).toBe(2)
    const rm = await bureau(['calendar', 'accounts', 'rm', 'bad'])
    expect(rm.code).toBe(0)
    expect(readFileSync(join(dataDir, 'secrets.json'), 'utf8')).not.toContain(
      'calendar.accounts.bad.password',
    )
    expect((await bureau(['calendar', 'accounts', 'rm', 'bad'])).code).toBe(1)
  })
})
