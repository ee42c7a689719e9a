import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseWav } from '../../../src/main/voice/wav/wavFile'
import { runCliInProcess } from '../../support/inProcessCli'
import { describeNeeding } from '../../support/requirements'
import { scriptedSuite } from '../../support/scriptedSuite'

const suite = scriptedSuite('bureau-say-cli-', { built: true })

const NO_PROVIDER_ENV = { BUREAU_PROVIDER: '', BUREAU_BASE_URL: '', BUREAU_API_KEY: '' }

describeNeeding(['espeak'], 'sayCommand with espeak-ng', () => {
  describe('bureau say', () => {
    it('--out writes one WAV through the chunker and queue with espeak-ng', async () => {
      const dir = await suite.dirs.make()
      const out = join(dir, 'answer.wav')
      const text =
        '## Result\n\nThe total is 1,234.56 euros. See the table below.\n\n| a | b |\n|---|---|\n| 1 | 2 |'
      const result = await runCliInProcess(
        ['say', '--engine', 'espeak-ng', '--data-dir', dir, '--out', out, text],
        {
          env: NO_PROVIDER_ENV,
        },
      )
      expect(result.stderr).toBe('')
      expect(result.code).toBe(0)
      expect(result.stdout).toMatch(/answer\.wav: 3 sentences, \d+\.\d s \(espeak-ng\)/)
      const info = parseWav(new Uint8Array(await readFile(out)))
      expect(info.sampleRate).toBe(22_050)
      expect(info.durationMs).toBeGreaterThan(3_000)
      expect(info.durationMs).toBeLessThan(15_000)
    })

    it('reads stdin with "-" and honours --rate', async () => {
      const dir = await suite.dirs.make()
      const text = 'One two three four five six seven eight nine ten eleven twelve.'
      const slow = join(dir, 'slow.wav')
      const fast = join(dir, 'fast.wav')
      await runCliInProcess(
        ['say', '--engine', 'espeak-ng', '--data-dir', dir, '--rate', '0.7', '--out', slow, '-'],
        {
          input: text,
          env: NO_PROVIDER_ENV,
        },
      )
      const r = await runCliInProcess(
        ['say', '--engine', 'espeak-ng', '--data-dir', dir, '--rate', '2', '--out', fast, '-'],
        {
          input: text,
          env: NO_PROVIDER_ENV,
        },
      )
      expect(r.code).toBe(0)
      const slowMs = parseWav(new Uint8Array(await readFile(slow))).durationMs
      const fastMs = parseWav(new Uint8Array(await readFile(fast))).durationMs
      expect(fastMs).toBeLessThan(slowMs * 0.6)
    })

    it('uses an OpenAI-compatible engine set through the provider overrides', async () => {
      const dir = await suite.dirs.make()
      const out = join(dir, 'openai.wav')
      const result = await runCliInProcess(
        [
          'say',
          '--engine',
          'openai',
          '--voice',
          'nova',
          '--data-dir',
          dir,
          '--out',
          out,
          'The first sentence is here. The second one is there.',
        ],
        {
          env: { BUREAU_PROVIDER: 'openai', BUREAU_BASE_URL: suite.llm.baseUrl, BUREAU_API_KEY: 'sk-say' },
        },
      )
      expect(result.code).toBe(0)
      const speech = suite.llm.requests.filter((r) => r.path === '/v1/audio/speech')
      // Both sentences are synthesized ahead and in parallel: the requests may arrive in either order.
      expect(speech.map((r) => (r.body as { input: string }).input).sort()).toEqual([
        'The first sentence is here.',
        'The second one is there.',
      ])
      expect(speech[0]?.body).toMatchObject({ voice: 'nova', response_format: 'wav' })
      expect(speech[0]?.headers.authorization).toBe('Bearer sk-say')
      expect(parseWav(new Uint8Array(await readFile(out))).sampleRate).toBe(24_000)
    })

    it('fails clearly: bad rate (exit 2), no text (exit 2), no speech service (exit 1)', async () => {
      const dir = await suite.dirs.make()
      const badRate = await runCliInProcess(['say', '--rate', '9', '--data-dir', dir, 'Hi'], {
        env: NO_PROVIDER_ENV,
      })
      expect(badRate.code).toBe(2)
      expect(badRate.stderr).toContain('--rate must be a number from 0.25 to 4')
      const empty = await runCliInProcess(['say', '--data-dir', dir, '-'], {
        input: '  ',
        env: NO_PROVIDER_ENV,
      })
      expect(empty.code).toBe(2)
      expect(empty.stderr).toContain('nothing to say')
      const noService = await runCliInProcess(
        ['say', '--engine', 'openai', '--data-dir', dir, '--out', join(dir, 'x.wav'), 'Hi'],
        {
          env: { ...NO_PROVIDER_ENV, BUREAU_PROVIDER: 'ollama' },
        },
      )
      expect(noService.code).toBe(1)
      expect(noService.stderr).toContain('Settings > Voice')
    })

    it('--out into a missing folder or onto a folder fails with exit 1 and names the problem', async () => {
      const dir = await suite.dirs.make()
      const missing = join(dir, 'no-such-folder', 'x.wav')
      const noFolder = await runCliInProcess(
        ['say', '--engine', 'espeak-ng', '--data-dir', dir, '--out', missing, 'Hi'],
        {
          env: NO_PROVIDER_ENV,
        },
      )
      expect(noFolder.code).toBe(1)
      expect(noFolder.stderr).toBe(`error: cannot write ${missing}: the folder does not exist\n`)
      // The folder exists but the target is a folder: the write itself fails, after synthesis.
      const onFolder = await runCliInProcess(
        ['say', '--engine', 'espeak-ng', '--data-dir', dir, '--out', dir, 'Hi'],
        {
          env: NO_PROVIDER_ENV,
        },
      )
      expect(onFolder.code).toBe(1)
      expect(onFolder.stderr).toBe(`error: cannot write ${dir}: it is a folder\n`)
    })

    it('--list-voices prints the engine voices', async () => {
      const dir = await suite.dirs.make()
      const result = await runCliInProcess(
        ['say', '--list-voices', '--engine', 'espeak-ng', '--data-dir', dir],
        {
          env: NO_PROVIDER_ENV,
        },
      )
      expect(result.code).toBe(0)
      expect(result.stdout).toMatch(/^en-us\t/m)
    })
  })
})
