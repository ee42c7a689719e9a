import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { buildCli } from '../../../src/main/cli'
import { runChat } from '../../../src/main/cli/chat/runChat'
import {
  progressLine,
  runModelsImport,
  runModelsList,
  runModelsRemove,
} from '../../../src/main/cli/models/runModels'
import { applyProviderFlags } from '../../../src/main/cli/program'
import type { TextIo } from '../../../src/main/cli/textIo'
import { tempDirs } from '../../support/tempDir'
import { TINY_MODEL } from '../../support/tinyModel'

const dirs = tempDirs('bureau-models-cli-')
afterAll(() => dirs.cleanup())

function capture(): TextIo & { stdout: () => string; stderr: () => string } {
  let out = ''
  let err = ''
  return { out: (t) => (out += t), err: (t) => (err += t), stdout: () => out, stderr: () => err }
}

describe('bureau models with the tiny GGUF', () => {
  describe('bureau models', { timeout: 180_000 }, () => {
    it('every subcommand has --help with its options', () => {
      const models = buildCli().commands.find((c) => c.name() === 'models')
      expect(models?.commands.map((c) => c.name())).toEqual(['list', 'pull', 'import', 'rm'])
      for (const sub of models?.commands ?? []) {
        const help = sub.helpInformation()
        expect(help).toContain('--data-dir')
      }
      expect(models?.commands.find((c) => c.name() === 'pull')?.helpInformation()).toContain('--sha256')
      expect(models?.commands.find((c) => c.name() === 'list')?.helpInformation()).toContain('--json')
    })

    it('import, list (text and --json), then rm', async () => {
      const dataDir = await dirs.make()
      const io = capture()
      await runModelsImport(TINY_MODEL, { dataDir, id: 'tiny' }, io)
      expect(io.stdout()).toMatch(/^installed tiny {2}\d+ KB {2}.*tiny\.gguf {2}sha256 [0-9a-f]{64}\n$/)
      const list = capture()
      await runModelsList({ dataDir }, list)
      expect(list.stdout()).toContain('qwen3-4b-q4km')
      expect(list.stdout()).toMatch(/Installed:\n {2}tiny {2}\d+ KB/)
      const json = capture()
      await runModelsList({ dataDir, json: true }, json)
      const parsed = JSON.parse(json.stdout()) as { installed: Array<{ id: string }>; catalogue: unknown[] }
      expect(parsed.installed.map((m) => m.id)).toEqual(['tiny'])
      expect(parsed.catalogue.length).toBe(3)
      await runModelsRemove('tiny', { dataDir }, capture())
      const after = capture()
      await runModelsList({ dataDir }, after)
      expect(after.stdout()).toContain('Installed: none')
    })

    it('the progress line shows percent, bytes, speed and ETA', () => {
      expect(
        progressLine({
          receivedBytes: 512 * 1024 ** 2,
          totalBytes: 1024 ** 3,
          speed: 8 * 1024 ** 2,
          etaSeconds: 64,
          resumes: 1,
        }),
      ).toBe('50% 512.0 MB / 1.00 GB  8.0 MB/s  ETA 1m 04s  (resumed 1×)')
    })

    it('--provider local --model <id> runs `bureau chat` on the installed model, ending with the done message', async () => {
      const dataDir = await dirs.make()
      const workspace = await dirs.make()
      await runModelsImport(TINY_MODEL, { dataDir, id: 'tiny' }, capture())
      // One thread and a short answer budget: the machine is shared and the model writes random text.
      await writeFile(join(dataDir, 'settings.json'), JSON.stringify({ localModels: { threads: 1 } }))
      await writeFile(join(dataDir, 'providers.json'), JSON.stringify([{ id: 'local', maxOutputTokens: 48 }]))
      const env: NodeJS.ProcessEnv = { HOME: dataDir, BUREAU_LOG_LEVEL: 'warn' }
      applyProviderFlags({ provider: 'local', model: 'tiny' }, env)
      expect(env).toMatchObject({ BUREAU_PROVIDER: 'local', BUREAU_MODEL: 'tiny' })
      const io = capture()
      await runChat(
        'Hello',
        {
          dataDir,
          workspace,
          attach: [],
          toolset: ['files'],
          subagent: [],
          anonymize: [],
          maxIterations: 1,
          json: true,
        },
        io,
        env,
      )
      const result = JSON.parse(io.stdout()) as { status: string; message: string }
      expect(result.status).toBe('done')
      expect(result.message.trim()).not.toBe('')
    })
  })
})
