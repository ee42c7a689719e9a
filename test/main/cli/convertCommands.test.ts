import { existsSync } from 'node:fs'
import { copyFile, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../support/builtCli'
import { fixturePath } from '../../support/fixtures'
import { runCliInProcess } from '../../support/inProcessCli'
import type { RecordedRequest } from '../../support/scriptedLlm'
import { scriptedProviderEnv } from '../../support/scriptedProviderEnv'
import { scriptedSuite } from '../../support/scriptedSuite'
import { reviewedContract } from '../documents/reviewFixture'

const suite = scriptedSuite('bureau-cli-convert-', { built: true })
const corpus = (name: string) => fixturePath('core', name)
const PICTURE = corpus('scan.jpg')

/** The `openai` preset (supportsVision: true) on the scripted server; `provider` picks another preset. */
const env = (provider = 'openai') =>
  scriptedProviderEnv(suite.llm, 'sk-cli-vision', {
    BUREAU_PROVIDER: provider,
    BUREAU_INTERACTION_MODE: 'cli',
    BUREAU_WORKSPACE: '',
  })

const sentImage = (request: RecordedRequest | undefined) =>
  /"url":"data:image\/jpeg;base64,/.test(JSON.stringify(request?.body))

describe('bureau convert --vision', () => {
  it('--help documents the option and its values', async () => {
    const help = await runCliInProcess(['convert', '--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toMatch(/--vision <mode>/)
    expect(help.stdout).toContain('"off"')
    expect(help.stdout).toContain('"when-supported"')
    expect(help.stdout).toContain('attachments.vision')
    expect((await runCliInProcess(['convert', '--vision', 'always', PICTURE])).code).toBe(2)
  })

  it('when-supported: the picture goes to the provider and its transcription is printed', async () => {
    const data = await suite.dirs.make()
    suite.llm.push({ text: 'A red square above a blue circle; the string 5bda1dd6.' })
    const result = await runCliInProcess(
      ['convert', '--vision', 'when-supported', '--data-dir', data, PICTURE],
      {
        env: env(),
      },
    )
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('A red square above a blue circle; the string 5bda1dd6.')
    expect(suite.llm.requests).toHaveLength(1)
    expect(sentImage(suite.llm.requests[0])).toBe(true)
  })

  it('a PDF with the setting left off converts without opening the data folder', async () => {
    const data = join(await suite.dirs.make(), 'fresh')
    const result = await runCliInProcess(['convert', '--data-dir', data, corpus('report.pdf')], {
      env: env(),
    })
    expect(result.code).toBe(0)
    expect(result.stdout.length).toBeGreaterThan(1000)
    expect(suite.llm.requests).toHaveLength(0)
    expect(existsSync(data)).toBe(false)
  })

  it('the default comes from the setting attachments.vision, and --vision off wins over it', async () => {
    const data = await suite.dirs.make()
    const set = await runCliInProcess([
      'settings',
      'set',
      '--data-dir',
      data,
      'attachments.vision',
      'when-supported',
    ])
    expect(set.code).toBe(0)
    suite.llm.push({ text: 'Transcribed because the setting says so.' })
    const bySetting = await runCliInProcess(['convert', '--data-dir', data, PICTURE], { env: env() })
    expect(bySetting.code).toBe(0)
    expect(bySetting.stdout).toContain('Transcribed because the setting says so.')
    expect(suite.llm.requests).toHaveLength(1)

    const offline = await runCliInProcess(['convert', '--vision', 'off', '--data-dir', data, PICTURE], {
      env: env(),
      timeoutMs: 120_000,
    })
    expect(offline.code).toBe(0)
    expect(offline.stdout).toContain('Text recognised in the image (OCR)')
    expect(offline.stdout).toContain('Delivery note 5521')
    expect(suite.llm.requests).toHaveLength(1)
  }, 150_000)

  it('a provider without supportsVision: OCR, and a warning naming the provider', async () => {
    const data = await suite.dirs.make()
    const result = await runCliInProcess(
      ['convert', '--vision', 'when-supported', '--data-dir', data, PICTURE],
      {
        env: env('deepseek'),
        timeoutMs: 120_000,
      },
    )
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('Delivery note 5521')
    expect(result.stderr).toContain(
      'warning: ' +
        PICTURE +
        ': DeepSeek (scripted-model) does not read images (its supportsVision is off); images and scanned pages were read with OCR instead',
    )
    expect(suite.llm.requests).toHaveLength(0)
  }, 150_000)
})

describe('the convert toolset from the command line', () => {
  it('bureau tool convert to_markdown pages a document; hostile paths and damaged files fail clearly', async () => {
    const workspace = await suite.dirs.make()
    const data = await suite.dirs.make()
    await copyFile(corpus('report.docx'), join(workspace, 'report.docx'))
    await writeFile(join(workspace, 'broken.pdf'), '%PDF-1.7\n1 0 obj <<')
    const tool = (...words: string[]) =>
      runCliInProcess(['tool', '--workspace', workspace, '--data-dir', data, 'convert', ...words], {
        env: env(),
      })

    const first = await tool('to_markdown', '/report.docx', '--max_chars', '1000')
    expect(first.code).toBe(0)
    const receipt = JSON.parse(first.stdout)
    expect(receipt).toMatchObject({ path: '/report.docx', format: 'docx', page: 1, next_page: 2 })
    expect(receipt.pages).toBeGreaterThan(2)
    expect(receipt.markdown).toContain('# Harbour Street Lantern Works')

    const outside = await tool('to_markdown', '/../etc/passwd')
    expect(outside.code).toBe(1)
    expect(outside.stderr).toContain('Path refused')

    const broken = await tool('to_markdown', '/broken.pdf')
    expect(broken.code).toBe(1)
    expect(broken.stderr).toContain('Cannot convert "broken.pdf"')

    const help = await tool('to_markdown', '--help')
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('max_chars')
  })

  it('--accepted-text prints a reviewed Word file as if every change were accepted', async () => {
    const dir = await suite.dirs.make()
    const contract = join(dir, 'contract.docx')
    await writeFile(contract, reviewedContract())
    const marked = await runCliInProcess(['convert', contract])
    expect(marked.code).toBe(0)
    expect(marked.stdout).toContain('{--30--}[#1 Alice 2024-05-02]{++45++}[#2 Alice 2024-05-01]')
    expect(marked.stdout).toContain('## Comments')
    const accepted = await runCliInProcess(['convert', '--accepted-text', contract])
    expect(accepted.code).toBe(0)
    expect(accepted.stdout).toContain('The **Supplier** shall deliver within 45 days.')
    expect(accepted.stdout).not.toMatch(/\{\+\+|\{--|Comments|Really/)
    const help = await runCliInProcess(['convert', '--help'])
    expect(help.stdout).toContain('--accepted-text')
  })

  it("a truncated picture: only Bureau's error on stderr, not the image libraries' own lines", async () => {
    const dir = await suite.dirs.make()
    const picture = join(dir, 'cut.jpg')
    await writeFile(picture, (await readFile(corpus('scan.jpg'))).subarray(0, 20_000))
    const quiet = await runCli(['convert', '--vision', 'off', picture])
    expect(quiet.code).toBe(1)
    expect(quiet.stderr).toContain('error: Cannot convert "cut.jpg": the image file could not be read')
    expect(
      quiet.stderr
        .trim()
        .split('\n')
        .filter((line) => !line.startsWith('error: ')),
    ).toEqual([])
    // The engine's own lines are kept for debugging.
    const debug = await runCli(['convert', '--vision', 'off', picture], {
      env: { BUREAU_LOG_LEVEL: 'debug' },
    })
    expect(debug.stderr).toContain('Premature end of JPEG file')
  })

  it('bureau chat in CLI mode: an attached picture is transcribed once; convert to_markdown reads the same result', async () => {
    const workspace = await suite.dirs.make()
    const data = await suite.dirs.make()
    expect(
      (await runCliInProcess(['settings', 'set', '--data-dir', data, 'attachments.vision', 'when-supported']))
        .code,
    ).toBe(0)
    suite.llm.push(
      { text: 'Receipt 7: total 12.40 EUR' },
      { toolCalls: [{ name: 'cli', arguments: { command: 'convert to_markdown /inbox/scan.jpg' } }] },
      { toolCalls: [{ name: 'done', arguments: { message: 'The total is 12.40 EUR.' } }] },
    )
    const result = await runCliInProcess(
      ['chat', '--workspace', workspace, '--data-dir', data, '--attach', PICTURE, 'What is the total?'],
      { env: env() },
    )
    expect(result.stderr).toContain('✓ convert.to_markdown')
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('The total is 12.40 EUR.')
    expect(suite.llm.requests).toHaveLength(3)
    expect(sentImage(suite.llm.requests[0])).toBe(true)
    const agentTurn = JSON.stringify(suite.llm.requests[1]?.body)
    expect(agentTurn).toContain('Receipt 7: total 12.40 EUR')
    expect(sentImage(suite.llm.requests[1])).toBe(false)
    const body = suite.llm.requests[2]?.body as { messages?: Array<{ role: string; content: string }> }
    const messages = body?.messages ?? []
    const toolResult = JSON.parse(messages.find((m) => m.role === 'tool')?.content ?? '{}')
    expect(toolResult).toMatchObject({ path: '/inbox/scan.jpg', format: 'image', warnings: [] })
    expect(toolResult.markdown).toContain('Receipt 7: total 12.40 EUR')
  })
})
