import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCliInProcess } from '../../support/inProcessCli'
import { scriptedProviderEnv } from '../../support/scriptedProviderEnv'
import { scriptedSuite } from '../../support/scriptedSuite'

const suite = scriptedSuite('bureau-chat-cli-', { built: true })

async function dirsFor() {
  return { workspace: await suite.dirs.make(), data: await suite.dirs.make() }
}

/** `bureau chat` with a workspace and data folder, the scripted model as the provider (API mode). */
function runChat(at: { workspace: string; data: string }, args: string[]) {
  const env = scriptedProviderEnv(suite.llm, 'sk-cli-test', {
    BUREAU_INTERACTION_MODE: 'api',
    BUREAU_WORKSPACE: '',
  })
  return runCliInProcess(['chat', '--workspace', at.workspace, '--data-dir', at.data, ...args], { env })
}

describe('bureau chat', () => {
  it('streams the reply to stdout, steps to stderr, prints returned files; exit 0', async () => {
    const { workspace, data } = await dirsFor()
    suite.llm.push(
      { text: 'Writing it now.', toolCalls: [{ name: 'open_toolset', arguments: { toolset: 'files' } }] },
      {
        toolCalls: [
          { name: 'files_write_text', arguments: { path: '/out/report.txt', content: 'Q3 is up' } },
        ],
      },
      {
        toolCalls: [
          {
            name: 'done',
            arguments: { message: 'The report is in /out/report.txt.', attachments: ['/out/report.txt'] },
          },
        ],
      },
    )
    const result = await runChat({ workspace, data }, ['Write the Q3 report'])
    expect(result.stderr).toContain('✓ files.write_text')
    expect(result.code).toBe(0)
    expect(result.stdout).toBe(
      'Writing it now.\n\nThe report is in /out/report.txt.\n\nFiles:\n/out/report.txt\n',
    )
    expect(await readFile(join(workspace, 'out/report.txt'), 'utf8')).toBe('Q3 is up')
  })

  it('--approve read: a write the settings would ask about is denied and reported, the model told; --approve write runs it', async () => {
    const { workspace, data } = await dirsFor()
    // `files: ask` makes the workspace's writes ask; a non-interactive run answers with its level instead.
    await writeFile(join(data, 'settings.json'), JSON.stringify({ approvals: { rules: { files: 'ask' } } }))
    const script = (path: string) =>
      suite.llm.push(
        { toolCalls: [{ name: 'open_toolset', arguments: { toolset: 'files' } }] },
        { toolCalls: [{ name: 'files_write_text', arguments: { path, content: 'notes' } }] },
        { toolCalls: [{ name: 'done', arguments: { message: 'Finished.' } }] },
      )
    script('/denied.txt')
    const before = suite.llm.requests.length
    const denied = await runChat({ workspace, data }, ['--approve', 'read', 'Write the notes'])
    expect(denied.code).toBe(0)
    expect(denied.stderr).toMatch(/files\.write_text.*approval level \(read\) does not cover this call/s)
    expect(denied.stdout).toContain('Finished.')
    expect(existsSync(join(workspace, 'denied.txt'))).toBe(false)
    expect(JSON.stringify(suite.llm.requests.slice(before).at(-1)?.body)).toContain('approval level (read)')

    script('/allowed.txt')
    const allowed = await runChat({ workspace, data }, ['--approve', 'write', 'Write the notes'])
    expect(allowed.code).toBe(0)
    expect(await readFile(join(workspace, 'allowed.txt'), 'utf8')).toBe('notes')
  })

  it('CLI interaction mode with --toolset: the model gets the cli and done tools only', async () => {
    const { workspace, data } = await dirsFor()
    suite.llm.push(
      { toolCalls: [{ name: 'cli', arguments: { command: 'files write_text /a.txt "via cli"' } }] },
      { toolCalls: [{ name: 'done', arguments: { message: 'ok' } }] },
    )
    // The flag wins over BUREAU_INTERACTION_MODE=api.
    const result = await runChat({ workspace, data }, [
      '--toolset',
      'files',
      '--interaction-mode',
      'cli',
      'go',
    ])
    expect(result.code).toBe(0)
    const body = suite.llm.requests[0]?.body as { tools?: Array<{ function: { name: string } }> } | undefined
    const tools = body?.tools ?? []
    expect(tools.map((t) => t.function.name)).toEqual(['cli', 'done'])
    expect(await readFile(join(workspace, 'a.txt'), 'utf8')).toBe('via cli')
  })

  it('--json prints the result object; --attach and --anonymize keep the term from the model', async () => {
    const { workspace, data } = await dirsFor()
    const file = join(await suite.dirs.make(), 'client.txt')
    await writeFile(file, 'Contract with Globex Corporation for 2025.')
    suite.llm.push({ text: 'The contract is with [0_PLACEHOLDER].' })
    const result = await runChat({ workspace, data }, [
      '--attach',
      file,
      '--anonymize',
      'Globex Corporation',
      '--json',
      'Who is the contract with?',
    ])
    expect(result.code).toBe(0)
    const printed = JSON.parse(result.stdout)
    expect(printed).toMatchObject({
      status: 'answered',
      message: 'The contract is with Globex Corporation.',
      received: [{ name: 'client.txt', status: 'converted', agentPath: '/inbox/client.txt' }],
    })
    const body = JSON.stringify(suite.llm.requests[0]?.body)
    expect(body).toContain('Contract with [0_PLACEHOLDER] for 2025.')
    expect(body).not.toContain('Globex')
  })

  it('exits 1 when the model fails for good, and 2 for an unknown toolset', async () => {
    const { workspace, data } = await dirsFor()
    suite.llm.push({ error: { status: 401 } })
    const failed = await runChat({ workspace, data }, ['hi'])
    expect(failed.code).toBe(1)
    expect(failed.stderr).toMatch(/error: /)
    expect(failed.stderr).not.toContain('sk-cli-test')
    const usage = await runChat({ workspace, data }, ['--toolset', 'nope', 'hi'])
    expect(usage.code).toBe(2)
    expect(usage.stderr).toContain('unknown --toolset nope')
  })

  it('exits 1 when a tool fails the same way three times', async () => {
    const { workspace, data } = await dirsFor()
    const bad = { toolCalls: [{ name: 'files_read', arguments: { path: '/missing.txt' } }] }
    suite.llm.push({ toolCalls: [{ name: 'open_toolset', arguments: { toolset: 'files' } }] }, bad, bad, bad)
    const result = await runChat({ workspace, data }, ['read it'])
    expect(result.code).toBe(1)
    expect(result.stdout).toContain('I stopped')
    expect(result.stderr.match(/✗ files\.read/g)).toHaveLength(3)
  })

  it('--subagent offers a toolset as a sub-agent; its question and steps show on stderr', async () => {
    const { workspace, data } = await dirsFor()
    suite.llm.push(
      { toolCalls: [{ name: 'launch_subagent', arguments: { toolset: 'files', task: 'Create the memo.' } }] },
      { toolCalls: [{ name: 'done', arguments: { question: 'What title?' } }] },
      { toolCalls: [{ name: 'provide_subagent_input', arguments: { input: 'Weekly memo' } }] },
      { toolCalls: [{ name: 'files_write_text', arguments: { path: '/memo.txt', content: 'Weekly memo' } }] },
      { toolCalls: [{ name: 'done', arguments: { message: 'Memo written.' } }] },
      {
        toolCalls: [
          { name: 'done', arguments: { message: 'Your memo is ready.', attachments: ['/memo.txt'] } },
        ],
      },
    )
    const result = await runChat({ workspace, data }, ['--toolset', 'files', '--subagent', 'files', 'memo'])
    expect(result.code).toBe(0)
    expect(result.stderr).toContain('? files sub-agent asks: What title?')
    expect(result.stderr).toContain('✓ [files] files.write_text')
    expect(result.stderr).toContain('✓ agent.provide_subagent_input')
    expect(result.stdout).toContain('Your memo is ready.')
    expect(await readFile(join(workspace, 'memo.txt'), 'utf8')).toBe('Weekly memo')
  })
})
