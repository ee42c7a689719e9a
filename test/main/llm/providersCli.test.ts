import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runProvidersList, runProvidersTest } from '../../../src/main/cli/providers/runProviders'
import type { TextIo } from '../../../src/main/cli/textIo'
import { AppError } from '../../../src/shared/errors'
import { type ScriptedLlm, startScriptedLlm } from '../../support/scriptedLlm'
import { tempDirs } from '../../support/tempDir'

const dirs = tempDirs('bureau-llm-cli-')
let llm: ScriptedLlm
beforeAll(async () => {
  llm = await startScriptedLlm()
})
afterAll(async () => {
  await llm.close()
  await dirs.cleanup()
})

function capture(): TextIo & { stdout: () => string; stderr: () => string } {
  let out = ''
  let err = ''
  return { out: (t) => (out += t), err: (t) => (err += t), stdout: () => out, stderr: () => err }
}

describe('bureau providers', () => {
  it('list prints a table with the active provider, mode and key state', async () => {
    const io = capture()
    const env = { BUREAU_PROVIDER: 'deepseek', DEEPSEEK_API_KEY: 'sk-cli-secret-1234567890' }
    await runProvidersList({ dataDir: await dirs.make() }, io, env)
    const lines = io.stdout().replace(/\n$/, '').split('\n')
    expect(lines[0]).toMatch(/^\s+ID\s+KIND\s+MODEL\s+CONTEXT\s+MODE\s+KEY$/)
    expect(lines.find((l) => l.includes('deepseek'))).toMatch(
      /^\*\s+deepseek\s+openai-compatible\s+deepseek-chat\s+128000\s+api \(auto\)\s+set$/,
    )
    expect(lines.find((l) => l.includes('ollama'))).toMatch(
      /ollama\s+ollama\s+qwen3:8b\s+from server\s+cli \(auto\)\s+-$/,
    )
    expect(lines.find((l) => l.includes(' openai '))).toContain('missing (OPENAI_API_KEY)')
    // The provider in use is the effective one, and the environment is named when it decides.
    expect(lines.at(-1)).toBe('* in use: deepseek (from BUREAU_PROVIDER)')
    expect(io.stdout()).not.toContain('sk-cli-secret')
  })

  it('a broken providers.json in the data folder is reported once, and the presets are used', async () => {
    const dataDir = await dirs.make()
    await writeFile(join(dataDir, 'providers.json'), '{broken')
    const io = capture()
    await runProvidersList({ dataDir }, io, {})
    expect(io.stderr().match(/providers\.json in the data folder is ignored/g)).toHaveLength(1)
    expect(io.stdout()).toContain('deepseek')
  })

  it('list --json prints the summaries', async () => {
    const io = capture()
    await runProvidersList({ dataDir: await dirs.make(), json: true }, io, {})
    const list = JSON.parse(io.stdout()) as Array<{ id: string }>
    expect(list[0]?.id).toBe('ollama')
  })

  it('test [id] prints one line with the latency; environment overrides point it at the server', async () => {
    const io = capture()
    llm.push({ text: 'OK' })
    const env = { BUREAU_PROVIDER: 'lmstudio', BUREAU_BASE_URL: llm.baseUrl, BUREAU_MODEL: 'scripted-model' }
    await runProvidersTest(undefined, { dataDir: await dirs.make() }, io, env)
    expect(io.stdout()).toMatch(/^ok {2}lmstudio {2}scripted-model {2}\d+ ms {2}"OK"\n$/)
    expect(llm.requests.at(-1)?.body).toMatchObject({ model: 'scripted-model' })
  })

  it('test fails with exit-1 error naming the problem (missing key, no request sent)', async () => {
    const io = capture()
    const before = llm.requests.length
    const error = await runProvidersTest('anthropic', { dataDir: await dirs.make() }, io, {}).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(AppError)
    expect((error as AppError).message).toMatch(
      /^anthropic: Anthropic Claude needs an API key.*ANTHROPIC_API_KEY/,
    )
    expect(llm.requests.length).toBe(before)
  })
})
