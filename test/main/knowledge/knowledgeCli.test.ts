import { copyFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt, runCli } from '../../support/builtCli'
import { fixturePath } from '../../support/fixtures'
import { tempDirs } from '../../support/tempDir'

const temps = tempDirs('bureau-knowledge-cli-')
let workspace: string
let dataDir: string

beforeAll(async () => {
  assertBuilt()
  workspace = await temps.make()
  dataDir = await temps.make()
  await copyFile(fixturePath('core', 'report.docx'), join(workspace, 'autogen.docx'))
  await writeFile(join(workspace, 'lease.md'), '# Lease\n\nThe tenant gives three months notice.\n')
})
afterAll(() => temps.cleanup())

const flags = () => ['--workspace', workspace, '--data-dir', dataDir]

describe('the knowledge toolset and bureau index, as built', () => {
  it('bureau tool knowledge search indexes on first use and returns cited passages', async () => {
    const result = await runCli(['tool', ...flags(), 'knowledge', 'search', 'tenant notice', '--top_k', '3'])
    expect(result.code, result.stderr).toBe(0)
    const value = JSON.parse(result.stdout)
    expect(value.mode).toBe('bm25')
    expect(value.passages[0]).toMatchObject({ n: 1, path: '/lease.md', location: 'Lease' })
  })

  it('bureau tool knowledge status and reindex', async () => {
    const status = JSON.parse((await runCli(['tool', ...flags(), 'knowledge', 'status'])).stdout)
    expect(status.files).toBe(2)
    expect(status.errors).toEqual([])
    const reindex = await runCli(['tool', ...flags(), 'knowledge', 'reindex', '--path', '/lease.md'])
    expect(reindex.code, reindex.stderr).toBe(0)
    expect(JSON.parse(reindex.stdout)).toMatchObject({ indexed: 1 })
  })

  it('bureau index build|status|search --json', async () => {
    await writeFile(join(workspace, 'trip.md'), '# Trip\n\nWe travel to Lisbon by train.\n')
    const build = await runCli(['index', 'build', ...flags(), '--json'])
    expect(build.code, build.stderr).toBe(0)
    expect(JSON.parse(build.stdout)).toMatchObject({ indexed: 1, unchanged: 2, errors: [] })
    const search = await runCli(['index', 'search', 'Lisbon', ...flags(), '--json'])
    expect(JSON.parse(search.stdout).passages[0].path).toBe('/trip.md')
    const status = await runCli(['index', 'status', ...flags()])
    expect(status.stdout).toMatch(/^3 files, \d+ passages, BM25/)
    const help = await runCli(['index', '--help'])
    expect(help.stdout).toMatch(/build/)
    expect(help.stdout).toMatch(/search/)
  })
})
