import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import { runTool } from '../../../src/main/cli/tool/runTool'
import { convertLifetime, setConvertLifetime } from '../../../src/main/convert/lifetime'
import { textSink } from '../../support/textSink'

// The lifetime a CLI command gives its converters (convert/lifetime.ts): one tool call ends before V8's
// optimizing compiler would repay itself on PDFium; a stdin session may convert for as long as the app.
describe('the conversion lifetime of bureau tool', () => {
  afterEach(() => setConvertLifetime('session'))

  async function tool(words: string[], stdinText: string): Promise<string> {
    const root = await mkdtemp(join(tmpdir(), 'bureau-cli-lifetime-'))
    const stdout = textSink()
    const stdin = new PassThrough()
    stdin.end(stdinText)
    try {
      await runTool(
        words,
        { dataDir: join(root, 'data'), workspace: join(root, 'ws') },
        { stdin, stdout: stdout.stream },
      )
    } finally {
      await rm(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 })
    }
    return stdout.text()
  }

  it('is one command for a single call', async () => {
    setConvertLifetime('session')
    const out = await tool(['--help'], '')
    expect(out.length).toBeGreaterThan(0)
    expect(convertLifetime()).toBe('command')
  }, 60_000)

  it('is a session for commands read from stdin', async () => {
    setConvertLifetime('command')
    const out = await tool([], '--help\n')
    expect(out.length).toBeGreaterThan(0)
    expect(convertLifetime()).toBe('session')
  }, 60_000)
})
