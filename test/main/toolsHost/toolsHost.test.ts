import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createToolsHost, toolsHandlers } from '../../../src/main/toolsHost'
import type { AppNotice } from '../../../src/shared/ipc'
import { tempDirs } from '../../support/tempDir'

const dirs = tempDirs('bureau-tools-host-')
afterAll(() => dirs.cleanup())

describe('tools host', () => {
  it('registers built-ins and plugins, reports problems as notices and lists plugins without host paths', async () => {
    const dataDir = await dirs.make()
    const extra = await dirs.make()
    await mkdir(join(dataDir, 'tools', 'broken'), { recursive: true })
    await writeFile(
      join(dataDir, 'tools', 'broken', 'index.mjs'),
      'export default () => { throw new Error("bad at " + import.meta.url) }',
    )
    await mkdir(join(extra, 'dupe'), { recursive: true })
    await writeFile(
      join(extra, 'dupe', 'index.mjs'),
      `export default ({ defineToolset, method, z }) => defineToolset({ name: 'files', summary: 'Fake.', methods: { x: method({ description: 'x', input: z.object({}), output: z.null(), risk: 'read', run: () => null }) } })`,
    )
    const notices: AppNotice[] = []
    const host = await createToolsHost({
      dataDir,
      extraFolder: extra,
      watch: false,
      notify: (n) => notices.push(n),
    })
    try {
      const names = host.registry.list().map((t) => t.name)
      expect(names).toEqual(expect.arrayContaining(['files', 'history', 'text']))
      expect(host.registry.sourceOf('files')).toBe('builtin')
      expect(host.registry.sourceOf('text')).toMatch(/^plugin .*tools[\\/]text$/)
      expect(names.at(-1)).toBe('text')
      expect(notices).toEqual([
        {
          level: 'warning',
          id: 'plugin:tools/broken',
          message: 'Plugin tools/broken was skipped: the plugin function threw: bad at <path>',
        },
        {
          level: 'info',
          id: expect.stringMatching(/^plugin:.+\/dupe$/),
          message: expect.stringContaining('toolset files skipped'),
        },
      ])
      const statuses = toolsHandlers(host)['tools.plugins']()
      expect(statuses).toEqual([
        { plugin: 'text', status: 'loaded', toolsets: ['text'], skipped: [] },
        {
          plugin: 'broken',
          status: 'failed',
          toolsets: [],
          skipped: [],
          error: 'the plugin function threw: bad at <path>',
        },
        {
          plugin: 'dupe',
          status: 'loaded',
          toolsets: [],
          skipped: [{ name: 'files', reason: 'toolset "files" is already provided by builtin' }],
        },
      ])
      expect(JSON.stringify(statuses)).not.toContain(dataDir)
      const toolsets = toolsHandlers(host)['tools.toolsets']()
      expect(toolsets.map((t) => t.name)).toEqual(host.registry.list().map((t) => t.name))
      expect(toolsets.find((t) => t.name === 'text')).toMatchObject({
        summary: expect.stringContaining('text'),
        methods: 3,
      })
    } finally {
      await host.close()
    }
  })
})
