import { execFileSync } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCliInProcess } from '../../support/inProcessCli'
import { describeNeeding } from '../../support/requirements'
import { tempDirs } from '../../support/tempDir'

// `bureau transcribe` and `bureau models` through the real command tree, in-process.
const dirs = tempDirs('bureau-transcribe-cli-')
let dataDir = ''
beforeAll(async () => {
  dataDir = await dirs.make()
})
afterAll(() => dirs.cleanup())
const run = (args: string[]) => runCliInProcess([...args, '--data-dir', dataDir], { timeoutMs: 120_000 })

describe('bureau transcribe', () => {
  it('has help naming its engines and options', async () => {
    const help = await runCliInProcess(['transcribe', '--help'])
    expect(help.code).toBe(0)
    for (const word of ['whisper', 'pocketsphinx', 'openai', '--model-file', '--language'])
      expect(help.stdout).toContain(word)
    const say = await runCliInProcess(['say', '--help'])
    for (const word of ['festival', 'piper']) expect(say.stdout).toContain(word)
  })

  it('says clearly what is wrong with its input', async () => {
    const missing = await run(['transcribe', join(dataDir, 'none.wav'), '--engine', 'pocketsphinx'])
    expect(missing.code).not.toBe(0)
    expect(missing.stderr).toMatch(/no such file/)
    const both = await run(['transcribe', 'x.wav', '--model', 'whisper-tiny', '--model-file', 'x.bin'])
    expect(both.code).not.toBe(0)
    expect(both.stderr).toMatch(/--model or --model-file, not both/)
    const notWav = join(dataDir, 'note.wav')
    await writeFile(notWav, 'not audio at all')
    const bad = await run(['transcribe', notWav, '--engine', 'pocketsphinx'])
    expect(bad.code).not.toBe(0)
    expect(bad.stderr).toMatch(/not a WAV file/)
    const model = join(dataDir, 'cut.bin')
    await writeFile(model, Buffer.alloc(1000))
    const wrongModel = await run(['transcribe', notWav, '--model-file', model])
    expect(wrongModel.code).not.toBe(0)
    const notInstalled = await run(['transcribe', notWav, '--model', 'whisper-base.en'])
    expect(notInstalled.stderr).toMatch(/bureau models pull whisper-base.en/)
  })

  it('lists the speech models beside the chat models', async () => {
    const list = await run(['models', 'list'])
    expect(list.code).toBe(0)
    expect(list.stdout).toMatch(/Speech models/)
    expect(list.stdout).toMatch(/whisper-base\.en .*MIT/)
    expect(list.stdout).toMatch(/piper-de_DE-thorsten-medium/)
  })
})

describeNeeding(['espeak', 'pocketsphinx'], 'bureau transcribe with PocketSphinx', () => {
  it('prints the text of a 22.05 kHz espeak-ng WAV (resampled to 16 kHz)', async () => {
    const wav = join(dataDir, 'speech.wav')
    await writeFile(
      wav,
      execFileSync('espeak-ng', ['--stdout', '-v', 'en-us', 'The meeting starts at ten tomorrow morning.']),
    )
    const result = await run(['transcribe', wav, '--engine', 'pocketsphinx', '--json'])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const parsed = JSON.parse(result.stdout) as { text: string; engine: string }
    expect(parsed.engine).toBe('pocketsphinx')
    expect(parsed.text).toMatch(/tomorrow|morning/)
  })
})
