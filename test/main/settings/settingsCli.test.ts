import { readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCliInProcess } from '../../support/inProcessCli'
import { tempDirs } from '../../support/tempDir'
import { containsSecret, filesContaining } from './secretScan'

const dirs = tempDirs()
afterAll(() => dirs.cleanup())

const SECRET = 'sk-cli-secret-0a1b2c3d4e5f67890c0de'
// No inherited overrides: the tests decide what the environment holds.
const env = { BUREAU_API_KEY: '', BUREAU_WORKSPACE: '', BUREAU_DATA_DIR: '' }
const bureau = (args: string[], input?: string) => runCliInProcess(args, { input, env })

describe('bureau settings', () => {
  it('get prints the public settings as JSON, or one value', async () => {
    const dataDir = await dirs.make()
    const all = await bureau(['settings', 'get', '--data-dir', dataDir])
    expect(all.code).toBe(0)
    expect(JSON.parse(all.stdout)).toMatchObject({ schemaVersion: 1, ui: { theme: 'system' }, secrets: {} })
    const one = await bureau(['settings', 'get', 'attachments.budgetChars', '--data-dir', dataDir])
    expect(one.stdout.trim()).toBe('30000')
    const unknown = await bureau(['settings', 'get', 'nope.nothing', '--data-dir', dataDir])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('Unknown setting "nope.nothing"')
  })

  it('set parses JSON when it can, else takes a string, and validates', async () => {
    const dataDir = await dirs.make()
    const theme = await bureau(['settings', 'set', 'ui.theme', 'dark', '--data-dir', dataDir])
    expect(theme.code).toBe(0)
    expect(theme.stdout.trim()).toBe('ui.theme = "dark"')
    expect(
      (await bureau(['settings', 'set', 'attachments.budgetChars', '12000', '--data-dir', dataDir])).code,
    ).toBe(0)
    expect(
      (await bureau(['settings', 'set', 'anonymization.terms', '["ACME","Jane"]', '--data-dir', dataDir]))
        .code,
    ).toBe(0)
    // A number-looking model name is still a string where the schema wants one.
    expect(
      (await bureau(['settings', 'set', 'provider.model', '4', '--data-dir', dataDir])).stdout,
    ).toContain('"4"')
    const stored = JSON.parse(await readFile(join(dataDir, 'settings.json'), 'utf8'))
    expect(stored).toEqual({
      schemaVersion: 1,
      ui: { theme: 'dark' },
      attachments: { budgetChars: 12000 },
      anonymization: { terms: ['ACME', 'Jane'] },
      provider: { model: '4' },
    })
    const reset = await bureau(['settings', 'set', 'ui.theme', 'null', '--data-dir', dataDir])
    expect(reset.stdout.trim()).toBe('ui.theme = "system"')
  })

  it('set refuses bad values, unknown keys and secrets with exit 2 and a clear message', async () => {
    const dataDir = await dirs.make()
    const bad = await bureau(['settings', 'set', 'attachments.budgetChars', '12', '--data-dir', dataDir])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/Invalid value for attachments\.budgetChars: .*>=1000/)
    const unknown = await bureau(['settings', 'set', 'ui.colour', 'red', '--data-dir', dataDir])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('Unknown setting "ui.colour"')
    const secret = await bureau([
      'settings',
      'set',
      'providers.deepseek.apiKey',
      SECRET,
      '--data-dir',
      dataDir,
    ])
    expect(secret.code).toBe(2)
    expect(secret.stderr).toContain('bureau settings set-secret providers.deepseek.apiKey')
    expect(containsSecret(secret.stderr + secret.stdout, SECRET)).toBe(false)
    expect(await filesContaining(dataDir, SECRET)).toEqual([])
    const missing = await bureau(['settings', 'set', 'ui.theme'])
    expect(missing.code).toBe(2)
  })

  it('set-secret reads stdin, stores it encrypted and get shows it masked', async () => {
    const dataDir = await dirs.make()
    const set = await bureau(
      ['settings', 'set-secret', 'providers.deepseek.apiKey', '--data-dir', dataDir],
      `${SECRET}\n`,
    )
    expect(set.code).toBe(0)
    expect(set.stdout).toContain('Stored providers.deepseek.apiKey (sk-…c0de)')
    expect(containsSecret(set.stdout + set.stderr, SECRET)).toBe(false)
    expect(await filesContaining(dataDir, SECRET)).toEqual([])
    expect((await stat(join(dataDir, 'secrets.key'))).mode & 0o777).toBe(0o600)

    const masked = await bureau(['settings', 'get', 'providers.deepseek.apiKey', '--data-dir', dataDir])
    expect(JSON.parse(masked.stdout)).toEqual({ set: true, source: 'stored', hint: 'sk-…c0de' })
    const all = await bureau(['settings', 'get', '--data-dir', dataDir])
    expect(containsSecret(all.stdout, SECRET)).toBe(false)

    const cleared = await bureau([
      'settings',
      'clear-secret',
      'providers.deepseek.apiKey',
      '--data-dir',
      dataDir,
    ])
    expect(cleared.code).toBe(0)
    expect(cleared.stdout.trim()).toBe('Cleared providers.deepseek.apiKey.')
    const again = await bureau(['settings', 'get', 'providers.deepseek.apiKey', '--data-dir', dataDir])
    expect(JSON.parse(again.stdout)).toEqual({ set: false })
  })

  it('set-secret refuses an unknown name or an empty stdin (exit 2)', async () => {
    const dataDir = await dirs.make()
    const badName = await bureau(['settings', 'set-secret', 'ui.theme', '--data-dir', dataDir], SECRET)
    expect(badName.code).toBe(2)
    expect(badName.stderr).toContain('not a secret name')
    const empty = await bureau(['settings', 'set-secret', 'email.smtpPassword', '--data-dir', dataDir], '')
    expect(empty.code).toBe(2)
    expect(empty.stderr).toContain('No value on stdin')
  })

  it('prints the corrupt-file notice on stderr and still answers', async () => {
    const dataDir = await dirs.make()
    await writeFile(join(dataDir, 'settings.json'), 'not json at all')
    const result = await bureau(['settings', 'get', 'ui.theme', '--data-dir', dataDir])
    expect(result.code).toBe(0)
    expect(result.stdout.trim()).toBe('"system"')
    expect(result.stderr).toMatch(/error: Your settings could not be used .* settings\.corrupt-.*\.json/)
  })

  it('with a damaged key file, get masks the secret and flags it unreadable, and set-secret fails clearly (exit 1)', async () => {
    const dataDir = await dirs.make()
    await bureau(['settings', 'set-secret', 'email.smtpPassword', '--data-dir', dataDir], 'pw-123456789')
    await writeFile(join(dataDir, 'secrets.key'), 'AAAA\n')
    const result = await bureau(['settings', 'get', 'email.smtpPassword', '--data-dir', dataDir])
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout)).toEqual({ set: true, source: 'stored', unreadable: true })
    const set = await bureau(
      ['settings', 'set-secret', 'email.imapPassword', '--data-dir', dataDir],
      'pw-987654321',
    )
    expect(set.code).toBe(1)
    expect(set.stderr).toContain('The key file secrets.key in the data folder is damaged')
    expect(set.stderr).not.toContain(dataDir)
  })
})
