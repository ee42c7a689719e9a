import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createMcpHost } from '../../../src/main/mcp'
import { createNoticeCenter, silentLogger } from '../../../src/main/platform'
import { createToolRegistry } from '../../../src/main/tools'
import type { AppNotice } from '../../../src/shared/ipc'
import { tempDirs } from '../../support/tempDir'

const dirs = tempDirs('bureau-mcp-notices-')
afterAll(() => dirs.cleanup())

describe('the notice of an MCP server that does not start', () => {
  it('names the missing program in words and goes away with the server', async () => {
    const dataDir = await dirs.make()
    const file = join(dataDir, 'mcp.json')
    await writeFile(file, JSON.stringify({ mcpServers: { missing: { command: 'no-such-mcp-binary' } } }))
    const emitted: AppNotice[] = []
    const cleared: string[] = []
    const notices = createNoticeCenter(
      (n) => emitted.push(n),
      50,
      (id) => cleared.push(id),
    )
    const host = createMcpHost({
      dataDir,
      settings: {
        mcp: () => ({ servers: {}, connectTimeoutSeconds: 10, callTimeoutSeconds: 3 }),
        getSecret: async () => undefined,
        listSecretNames: () => [],
      },
      registry: createToolRegistry(),
      logger: silentLogger,
      notify: (n) => notices.notify(n),
      clearNotice: (id) => notices.clear(id),
    })
    try {
      await host.start()
      const [status] = host.status()
      expect(status?.state).toBe('failed')
      expect(status?.lastError).toContain('the program "no-such-mcp-binary" was not found')
      expect(status?.lastError).not.toContain('ENOENT')
      expect(notices.list().map((n) => n.id)).toEqual(['mcp:missing'])
      expect(notices.list()[0]?.message).not.toContain('spawn')

      await writeFile(file, JSON.stringify({ mcpServers: {} }))
      await host.refresh()
      expect(host.status()).toEqual([])
      expect(notices.list()).toEqual([])
      expect(cleared).toEqual(['mcp:missing'])
    } finally {
      await host.close()
    }
  })

  it('a dismissed notice is not listed again until it is raised again', () => {
    const notices = createNoticeCenter(() => {})
    notices.notify({ id: 'mcp:a', level: 'warning', message: 'a' })
    notices.notify({ id: 'mcp:a:limits', level: 'warning', message: 'limits' })
    notices.notify({ id: 'mcp:ab', level: 'warning', message: 'ab' })
    expect(notices.clear('mcp:a')).toBe(true)
    expect(notices.list().map((n) => n.id)).toEqual(['mcp:ab'])
    expect(notices.clear('mcp:a')).toBe(false)
  })
})
