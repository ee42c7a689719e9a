import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createBridgeToken, listBridgeTokens, revokeBridgeToken } from '../../../src/main/bridge'
import { verifyBridgeToken } from '../../../src/main/bridge/auth/tokenStore'
import { openSettings } from '../../../src/main/settings'
import { runCliInProcess } from '../../support/inProcessCli'
import { tempDirs } from '../../support/tempDir'

const dirs = tempDirs('bureau-bridge-tokens-')
afterAll(() => dirs.cleanup())

async function everyFileContains(dir: string, needle: string): Promise<string[]> {
  const hits: string[] = []
  for (const name of await readdir(dir, { recursive: true })) {
    const bytes = await readFile(join(dir, name)).catch(() => undefined)
    if (bytes?.includes(needle)) hits.push(name)
  }
  return hits
}

describe('bridge tokens', () => {
  it('are stored hashed inside the encrypted secrets: neither the token nor its secret part is on disk', async () => {
    const dataDir = await dirs.make()
    const settings = await openSettings({ dataDir })
    const { token } = await createBridgeToken(settings, 'script-1')
    expect(token).toMatch(/^bureau-script-1\.[A-Za-z0-9_-]{43}$/)
    const secretPart = token.split('.')[1] ?? ''
    expect(await everyFileContains(dataDir, secretPart)).toEqual([])
    expect(await verifyBridgeToken(settings, token)).toBe('script-1')
    // The stored value is a hash: what is stored, decrypted, is not the token.
    expect(await settings.getSecret('bridge.tokens.script-1')).not.toContain(secretPart)
    expect(await listBridgeTokens(settings)).toEqual([{ name: 'script-1', created: expect.any(String) }])
  })

  it('refuse a wrong secret, a forged name, a malformed token, and tokens after revoke', async () => {
    const settings = await openSettings({ dataDir: await dirs.make() })
    const { token } = await createBridgeToken(settings, 'a')
    const { token: other } = await createBridgeToken(settings, 'b')
    const forged = `bureau-b.${token.split('.')[1]}`
    for (const bad of [forged, `${token}x`, token.slice(0, -1), 'Bearer', '', 'bureau-zz.AAAA']) {
      expect(await verifyBridgeToken(settings, bad)).toBeUndefined()
    }
    expect(await verifyBridgeToken(settings, other)).toBe('b')
    expect(await revokeBridgeToken(settings, 'a')).toBe(true)
    expect(await revokeBridgeToken(settings, 'a')).toBe(false)
    expect(await verifyBridgeToken(settings, token)).toBeUndefined()
    await expect(createBridgeToken(settings, 'b')).rejects.toThrow(/exists already/)
    await expect(createBridgeToken(settings, 'Bad Name')).rejects.toThrow(/not a token name/)
  })
})

describe('bureau bridge token (built CLI)', () => {
  it('create prints the token once on stdout, list shows names, revoke removes; usage errors exit 2', async () => {
    const dataDir = await dirs.make()
    const created = await runCliInProcess(['bridge', 'token', 'create', 'ci', '--data-dir', dataDir])
    expect(created.code).toBe(0)
    const token = created.stdout.trim()
    expect(token).toMatch(/^bureau-ci\./)
    expect(created.stderr).toContain('shown only now')
    expect(await everyFileContains(dataDir, token)).toEqual([])

    const listed = await runCliInProcess(['bridge', 'token', 'list', '--data-dir', dataDir])
    expect(listed.code).toBe(0)
    expect(listed.stdout).toMatch(/^ci\t\d{4}-\d\d-\d\dT/)
    expect(listed.stdout).not.toContain(token)

    const again = await runCliInProcess(['bridge', 'token', 'create', 'ci', '--data-dir', dataDir])
    expect(again.code).toBe(1)
    expect(again.stderr).toContain('exists already')
    const badName = await runCliInProcess(['bridge', 'token', 'create', 'Not OK', '--data-dir', dataDir])
    expect(badName.code).toBe(2)

    expect((await runCliInProcess(['bridge', 'token', 'revoke', 'ci', '--data-dir', dataDir])).code).toBe(0)
    const missing = await runCliInProcess(['bridge', 'token', 'revoke', 'ci', '--data-dir', dataDir])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('no bridge token named "ci"')
    const empty = await runCliInProcess(['bridge', 'token', 'list', '--data-dir', dataDir])
    expect(empty.stdout).toBe('')
    expect(empty.stderr).toContain('No bridge tokens')
  })

  it('serve refuses an out-of-range --bridge-max-concurrent with exit 2', async () => {
    const result = await runCliInProcess([
      'serve',
      '--port',
      '0',
      '--data-dir',
      await dirs.make(),
      '--workspace',
      await dirs.make(),
      '--bridge-max-concurrent',
      '0',
    ])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('--bridge-max-concurrent 0')
  })
})
