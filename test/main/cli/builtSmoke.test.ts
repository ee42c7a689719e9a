import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt, runCli } from '../../support/builtCli'
import { tempDirs } from '../../support/tempDir'

// The command tests run `bureau` in-process (runCliInProcess). This file runs each command once as the
// built program a user starts, so the bundle, its lazy imports and the process's exit code are covered too.

const dirs = tempDirs('bureau-built-smoke-')
let dataDir = ''
let workspace = ''

beforeAll(async () => {
  assertBuilt()
  dataDir = await dirs.make()
  workspace = await dirs.make()
})
afterAll(() => dirs.cleanup())

describe('the built bureau command, one run per command', () => {
  it('settings set and get', async () => {
    const set = await runCli(['settings', 'set', '--data-dir', dataDir, 'attachments.vision', 'off'])
    expect(set.code, set.stderr).toBe(0)
    const get = await runCli(['settings', 'get', '--data-dir', dataDir, 'attachments.vision'])
    expect(get.code, get.stderr).toBe(0)
    expect(get.stdout).toContain('off')
  })

  it('convert prints Markdown', async () => {
    const file = join(workspace, 'note.html')
    await writeFile(file, '<h1>Quarterly</h1><p>Revenue grew.</p>')
    const result = await runCli(['convert', '--data-dir', dataDir, file])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain('# Quarterly')
    expect(result.stdout).toContain('Revenue grew.')
  })

  it('providers list, models list, email accounts list, bridge token list', async () => {
    const providers = await runCli(['providers', 'list', '--data-dir', dataDir])
    expect(providers.code, providers.stderr).toBe(0)
    expect(providers.stdout).toMatch(/openai/i)
    const models = await runCli(['models', 'list', '--data-dir', dataDir])
    expect(models.code, models.stderr).toBe(0)
    expect(models.stdout.length).toBeGreaterThan(0)
    const accounts = await runCli(['email', 'accounts', 'list', '--data-dir', dataDir])
    expect(accounts.code, accounts.stderr).toBe(0)
    expect(accounts.stderr).toContain('No e-mail accounts')
    const tokens = await runCli(['bridge', 'token', 'list', '--data-dir', dataDir])
    expect(tokens.code, tokens.stderr).toBe(0)
    expect(tokens.stderr).toContain('No bridge tokens')
  })

  it('index status, and the help of chat, eval, say and mcp', async () => {
    const status = await runCli(['index', 'status', '--data-dir', dataDir, '--workspace', workspace])
    expect(status.code, status.stderr).toBe(0)
    for (const command of ['chat', 'eval', 'say', 'mcp']) {
      const help = await runCli([command, '--help'])
      expect(help.code, help.stderr).toBe(0)
      expect(help.stdout).toContain(`Usage: bureau ${command}`)
    }
  })
})
