import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { providerEmbedder } from '../../../src/main/knowledge'
import { LocalEmbeddings } from '../../../src/main/llm/local/localEmbeddings'
import { sharedLocalEmbeddings } from '../../../src/main/llm/local/localHost'
import { LocalRuntime } from '../../../src/main/llm/local/localRuntime'
import { releaseLocalModel } from '../../../src/main/llm/local/releaseLocalModel'
import { defaultSettings } from '../../../src/shared/settings'
import { TINY_MODEL } from '../../support/tinyModel'
import { knowledgeHarness, temps } from './harness'

// The tiny random-weight GGUF of the local-model fixtures: its vectors mean nothing, but they are real
// llama.cpp embeddings, so the path from settings to stored vectors and hybrid search is the real one.
const TINY = TINY_MODEL
const runtime = new LocalRuntime({ gpu: false, threads: 1 })
const embeddings = new LocalEmbeddings(
  () => runtime.backend(),
  () => 0,
)
const local = { embed: (model: string, texts: readonly string[]) => embeddings.embed(model, texts) }
const localSettings = () => ({
  ...defaultSettings().knowledge,
  embeddings: 'local' as const,
  embeddingModel: TINY,
})
const noProviders = async () => {
  throw new Error('the local embedder needs no provider')
}

afterAll(async () => {
  await embeddings.unload()
  await runtime.unload()
  await temps.cleanup()
})

describe('local GGUF embeddings with the tiny model', () => {
  describe('local GGUF embeddings for the knowledge index', () => {
    it('embeds passages into vectors of one dimension; the same text gives the same vector', async () => {
      const [a, b, again] = await embeddings.embed(TINY, [
        'Quarterly revenue rose by four percent.',
        'The zeppelin hangar is north of the runway.',
        'Quarterly revenue rose by four percent.',
      ])
      expect(a?.length).toBeGreaterThan(0)
      expect(b).toHaveLength(a?.length ?? -1)
      expect(again).toEqual(a)
      expect(b).not.toEqual(a)
      expect([...(a ?? []), ...(b ?? [])].every(Number.isFinite)).toBe(true)
    })

    it('cuts a passage longer than its context instead of failing', async () => {
      const [vector] = await embeddings.embed(TINY, ['word '.repeat(20_000)])
      expect(vector?.length).toBeGreaterThan(0)
    })

    it('deleting a model unloads it from the process-wide embedding slot too', async () => {
      const shared = sharedLocalEmbeddings({ gpu: false, threads: 1 })
      await shared.embed(TINY, ['loaded'])
      expect(shared.current).toBe(TINY)
      await releaseLocalModel(TINY)
      expect(shared.current).toBeUndefined()
    })

    it('a file that is not a model fails with a message naming it', async () => {
      const bogus = join(await temps.make(), 'not-a-model.gguf')
      await writeFile(bogus, 'not a GGUF file')
      await expect(embeddings.embed(bogus, ['text'])).rejects.toThrow(/not-a-model\.gguf/)
    })

    it('knowledge.embeddings = local: the index stores the model’s vectors and searches hybrid', async () => {
      const embedder = providerEmbedder(localSettings, noProviders, local)
      const h = await knowledgeHarness({}, { embedder })
      try {
        await h.workspace.writeFile('/lease.md', '# Lease\n\nThe tenant gives three months notice.\n')
        await h.workspace.writeFile('/trip.md', '# Trip\n\nThe team travels to Lisbon by train.\n')
        const report = await h.knowledge.build()
        expect(report.embeddingError).toBeUndefined()
        expect((await h.knowledge.status()).mode).toBe('hybrid')
        const outcome = await h.knowledge.search({ query: 'tenant notice', topK: 2 })
        expect(outcome.mode).toBe('hybrid')
        expect(outcome.passages.map((passage) => passage.path)).toContain('/lease.md')
      } finally {
        await h.close()
      }
    })

    it('without a local runtime (a process that has none) the setting is an error the status can show', async () => {
      const embedder = providerEmbedder(localSettings, noProviders)
      await expect(embedder()).rejects.toThrow(/local embedding models run only in the app and the CLI/)
    })
  })
})
