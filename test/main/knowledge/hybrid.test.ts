import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { endpointEmbedder } from '../../../src/main/knowledge'
import type { ScriptedLlm } from '../../support/scriptedLlm'
import { startScriptedLlm } from '../../support/scriptedLlm'
import { knowledgeHarness, temps } from './harness'

let llm: ScriptedLlm
beforeAll(async () => {
  llm = await startScriptedLlm()
})
afterAll(async () => {
  await llm.close()
  await temps.cleanup()
})

const notes = {
  '/lease.md': '# Lease\n\nThe tenant must give three months notice before leaving the flat.\n',
  '/budget.md': '# Budget\n\nMarketing spend for the second quarter is 12,000 euros.\n',
  '/trip.md': '# Trip\n\nThe team travels to Lisbon by train in October.\n',
}

async function harnessWith(kind: 'openai-compatible' | 'ollama', model = 'embed-a') {
  const embedder = endpointEmbedder({ kind, baseUrl: kind === 'ollama' ? llm.url : llm.baseUrl, model })
  const h = await knowledgeHarness({}, { embedder: async () => embedder })
  for (const [path, text] of Object.entries(notes)) await h.workspace.writeFile(path, text)
  return h
}

describe('hybrid ranking with the scripted embeddings endpoint', () => {
  it('stores vectors and fuses them with BM25 (OpenAI-compatible /v1/embeddings)', async () => {
    llm.reset()
    const h = await harnessWith('openai-compatible')
    try {
      const report = await h.knowledge.build()
      expect(report.embeddingError).toBeUndefined()
      expect(llm.requests.some((request) => request.endpoint === 'openai.embeddings')).toBe(true)
      const status = await h.knowledge.status()
      expect(status.mode).toBe('hybrid')
      const outcome = await h.knowledge.search({ query: 'notice tenant', topK: 3 })
      expect(outcome.mode).toBe('hybrid')
      expect(outcome.passages[0]?.path).toBe('/lease.md')
    } finally {
      await h.close()
    }
  })

  it('works with Ollama /api/embed too', async () => {
    llm.reset()
    const h = await harnessWith('ollama')
    try {
      await h.knowledge.build()
      expect(llm.requests.some((request) => request.endpoint === 'ollama.embed')).toBe(true)
      expect((await h.knowledge.search({ query: 'Lisbon train', topK: 1 })).passages[0]?.path).toBe(
        '/trip.md',
      )
    } finally {
      await h.close()
    }
  })

  it('keeps BM25 working when the endpoint fails, and re-embeds everything when the dimension changes', async () => {
    llm.reset()
    const h = await harnessWith('openai-compatible')
    try {
      llm.embeddings.set({ failStatus: 503 })
      const failed = await h.knowledge.build()
      expect(failed.indexed).toBe(3)
      expect(failed.embeddingError).toMatch(/HTTP 503/)
      const fallback = await h.knowledge.search({ query: 'marketing spend', topK: 1 })
      expect(fallback.mode).toBe('bm25')
      expect(fallback.warning).toMatch(/Vectors not used/)
      expect(fallback.passages[0]?.path).toBe('/budget.md')

      llm.embeddings.set({ failStatus: undefined })
      const healed = await h.knowledge.build()
      expect(healed.embeddingError).toBeUndefined()
      expect((await h.knowledge.status()).mode).toBe('hybrid')

      // Same model name, new dimension: the old vectors must not be mixed with the new ones.
      llm.embeddings.set({ dimensions: 32 })
      await h.workspace.writeFile('/trip.md', '# Trip\n\nThe team flies to Porto in November.\n')
      const changed = await h.knowledge.build()
      expect(changed.embeddingError).toBeUndefined()
      const outcome = await h.knowledge.search({ query: 'budget marketing', topK: 3 })
      expect(outcome.mode).toBe('hybrid')
      expect(outcome.passages[0]?.path).toBe('/budget.md')
      expect(outcome.warning).toBeUndefined()
    } finally {
      await h.close()
    }
  })
})
