import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt, cliPath, repoRoot } from '../../support/builtCli'
import { tempDirs } from '../../support/tempDir'

const dirs = tempDirs('bureau-mcp-serve-')
let client: Client
let workspace = ''
let outside = ''

type TextResult = { content: Array<{ type: string; text?: string }>; isError?: boolean }
const text = (result: unknown) => (result as TextResult).content.map((c) => c.text ?? '').join('\n')

beforeAll(async () => {
  assertBuilt()
  workspace = await dirs.make()
  outside = await dirs.make()
  client = new Client({ name: 'test-client', version: '1.0.0' })
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [
        cliPath,
        'mcp',
        '--workspace',
        workspace,
        '--data-dir',
        await dirs.make(),
        '--toolsets',
        'files,spreadsheet',
      ],
      cwd: repoRoot,
      stderr: 'pipe',
    }),
  )
}, 60_000)

afterAll(async () => {
  await client?.close()
  await dirs.cleanup()
})

describe('bureau mcp, driven by the official SDK client', () => {
  it('lists the chosen toolsets with schemas and risk annotations', async () => {
    const { tools } = await client.listTools()
    const names = tools.map((t) => t.name)
    expect(names).toContain('spreadsheet_set_range')
    expect(names).toContain('files_read')
    expect(names.some((n) => n.startsWith('web_'))).toBe(false)
    const read = tools.find((t) => t.name === 'files_read')
    expect(read?.annotations?.readOnlyHint).toBe(true)
    expect(read?.inputSchema.properties).toHaveProperty('path')
  })

  it('edits a workbook and returns the receipt; the file is saved in the workspace', async () => {
    const created = await client.callTool({
      name: 'spreadsheet_create',
      arguments: { path: '/sales.xlsx', sheet: 'Sales' },
    })
    expect((created as TextResult).isError).toBeFalsy()
    const written = await client.callTool({
      name: 'spreadsheet_set_range',
      // Repaired like a model's call: numbers as strings are coerced by the schema.
      arguments: {
        path: '/sales.xlsx',
        sheet: 'Sales',
        start: 'A1',
        values: [
          ['Region', 'Total'],
          ['North', '12'],
        ],
      },
    })
    expect((written as TextResult).isError).toBeFalsy()
    const receipt = JSON.parse(text(written))
    expect(receipt).toMatchObject({ sheet: 'Sales' })
    expect(JSON.stringify(receipt)).toContain('North')
    const book = new ExcelJS.Workbook()
    await book.xlsx.readFile(join(workspace, 'sales.xlsx'))
    expect(book.getWorksheet('Sales')?.getCell('B2').value).toBe(12)
  })

  it('refuses a sandbox escape as a tool error, and nothing outside is touched', async () => {
    const escaped = await client.callTool({
      name: 'files_write_text',
      arguments: { path: `../${outside.split('/').pop()}/x.txt`, content: 'x' },
    })
    expect((escaped as TextResult).isError).toBe(true)
    expect(text(escaped)).toMatch(/refused|outside/i)
    const hostPath = await client.callTool({ name: 'files_read', arguments: { path: '/etc/passwd' } })
    expect((hostPath as TextResult).isError).toBe(true)
    expect(existsSync(join(outside, 'x.txt'))).toBe(false)
    expect(await readFile(join(workspace, 'sales.xlsx')).then((b) => b.length)).toBeGreaterThan(0)
  })
})
