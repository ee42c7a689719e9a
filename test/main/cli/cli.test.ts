import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt, runCli, startCli } from '../../support/builtCli'
import { rawHttp } from '../../support/rawHttp'
import { tempDirs } from '../../support/tempDir'

const dirs = tempDirs()
beforeAll(assertBuilt)
afterAll(() => dirs.cleanup())

describe('bureau CLI', () => {
  it('prints help listing the commands, exit 0', async () => {
    const result = await runCli(['--help'])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('Usage: bureau')
    expect(result.stdout).toMatch(/serve\s/)
  })

  it('prints help for serve', async () => {
    const result = await runCli(['serve', '--help'])
    expect(result.code).toBe(0)
    for (const flag of ['--host', '--port', '--data-dir', '--workspace', '--token'])
      expect(result.stdout).toContain(flag)
  })

  it('prints the version', async () => {
    const result = await runCli(['--version'])
    expect(result.code).toBe(0)
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/)
  })

  it('exits 2 on an unknown command or a bad option value', async () => {
    const unknown = await runCli(['frobnicate'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain("unknown command 'frobnicate'")
    const badPort = await runCli(['serve', '--port', 'eighty'])
    expect(badPort.code).toBe(2)
    expect(badPort.stderr).toContain('invalid port "eighty"')
  })

  it('serve prints the URL with the token, answers /health and stops on SIGTERM', async () => {
    const dataDir = join(await dirs.make(), 'nested', 'data')
    const workspace = join(await dirs.make(), 'ws')
    const server = await startCli(
      ['serve', '--port', '0', '--token', 'tok', '--data-dir', dataDir, '--workspace', workspace],
      /running at (http:\/\/127\.0\.0\.1:(\d+)\/\?token=tok)/,
    )
    const port = Number(server.match[2])
    const health = await rawHttp({ port, path: '/health' })
    expect(JSON.parse(health.body).status).toBe('ok')
    expect(await server.stop()).toBe(0)
  })

  it('serve exits 1 with a clear message when the port is taken', async () => {
    const args = ['--data-dir', await dirs.make(), '--workspace', await dirs.make()]
    const first = await startCli(['serve', '--port', '0', ...args], /running at http:\/\/127\.0\.0\.1:(\d+)/)
    const port = first.match[1] ?? ''
    const second = await runCli(['serve', '--port', port, ...args])
    await first.stop()
    expect(second.code).toBe(1)
    expect(second.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use`)
  })

  it('serve exits 1 with a clear message when the data folder is not writable', async () => {
    const file = join(await dirs.make(), 'plain-file')
    await writeFile(file, '')
    const result = await runCli([
      'serve',
      '--port',
      '0',
      '--data-dir',
      join(file, 'x'),
      '--workspace',
      await dirs.make(),
    ])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/data folder .* is not writable/)
  })
})
