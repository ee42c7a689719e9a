import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { endpointEmbedder } from '../../../src/main/knowledge'
import {
  fuseRankings,
  MEMORY_FILE_NAME,
  nearestByMeaning,
  openMemoryStore,
  selectMemories,
  type TextEmbedder,
} from '../../../src/main/memory'
import { INVOICE_FOLDER_MEMORY, memoryFileOf, officeMemories } from './memoryFixtures'

// A real OpenAI-compatible embeddings endpoint on 127.0.0.1 whose vectors carry "meaning" the test controls:
// words of one concept share a dimension ("bill" and "invoice" mean alike), other words are hashed into
// dimensions of their own. Word matching alone cannot link "bill" to "invoice"; the vectors can.
const CONCEPTS = [
  ['invoice', 'invoices', 'bill', 'bills', 'billing'],
  ['saved', 'save', 'file', 'filed', 'folder', 'stored', 'put'],
  ['holiday', 'vacation', 'leave'],
]
const DIMENSIONS = 256

function vectorOf(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0)
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const concept = CONCEPTS.findIndex((words) => words.includes(word))
    if (concept >= 0) vector[concept] = (vector[concept] ?? 0) + 3
    else {
      let hash = 7
      for (const char of word) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0
      const at = CONCEPTS.length + (hash % (DIMENSIONS - CONCEPTS.length))
      vector[at] = (vector[at] ?? 0) + 1
    }
  }
  return vector
}

let server: Server
let baseUrl: string
/** How many texts each request asked for. */
const batches: number[] = []
let failing = false

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8')
    })
    request.on('end', () => {
      if (failing || request.url !== '/v1/embeddings') {
        response.writeHead(failing ? 503 : 404).end()
        return
      }
      const input = (JSON.parse(body) as { input: string[] }).input
      batches.push(input.length)
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(
        JSON.stringify({ data: input.map((text, index) => ({ index, embedding: vectorOf(text) })) }),
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
})
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

const QUESTION = 'Where should this bill from the plumber be filed?'

/** A store over a memories file written whole (adding 500 one by one would write the file 500 times). */
async function storeWith(texts: string[], embedder?: TextEmbedder) {
  const dir = await mkdtemp(join(tmpdir(), 'bureau-memory-vectors-'))
  await writeFile(join(dir, MEMORY_FILE_NAME), JSON.stringify(memoryFileOf(texts)))
  const store = openMemoryStore({ dataDir: dir, ...(embedder ? { embedder: async () => embedder } : {}) })
  return { store, cleanup: () => rm(dir, { recursive: true, force: true }) }
}

describe('memories chosen by meaning when embeddings are set', () => {
  it('a question about a bill finds the invoice-folder memory among 500, which words alone miss', async () => {
    const embedder = endpointEmbedder({ kind: 'openai-compatible', baseUrl, model: 'concepts' })
    const { store, cleanup } = await storeWith(officeMemories(500), embedder)
    try {
      const file = await store.snapshot()
      const byWords = await selectMemories(file, { query: QUESTION })
      expect(byWords.used.map((m) => m.text)).not.toContain(INVOICE_FOLDER_MEMORY)

      batches.length = 0
      const nearest = await nearestByMeaning(store, QUESTION)
      const byMeaning = await selectMemories(file, { query: QUESTION, nearest })
      expect(byMeaning.used[0]?.text).toBe(INVOICE_FOLDER_MEMORY)
      expect(byMeaning.tokens).toBeLessThanOrEqual(300)
      // The request and every memory, once.
      expect(batches.reduce((sum, n) => sum + n, 0)).toBe(501)

      // The next turn embeds only its request: the memories' vectors are kept.
      batches.length = 0
      const again = await selectMemories(file, {
        query: QUESTION,
        nearest: await nearestByMeaning(store, QUESTION),
      })
      expect(batches).toEqual([1])
      expect(again.block).toBe(byMeaning.block)
    } finally {
      await cleanup()
    }
  })

  it('an endpoint that fails costs only the ranking by meaning: the words still choose, and the error is told', async () => {
    const embedder = endpointEmbedder({ kind: 'openai-compatible', baseUrl, model: 'concepts' })
    const { store, cleanup } = await storeWith(officeMemories(200), embedder)
    failing = true
    try {
      const errors: string[] = []
      const query = 'Where do I save the invoice from Schmidt AG?'
      const file = await store.snapshot()
      const nearest = await nearestByMeaning(store, query, (error) => errors.push(String(error)))
      const selection = await selectMemories(file, { query, nearest })
      expect(selection.block).toBe((await selectMemories(file, { query })).block)
      expect(selection.used.map((m) => m.text)).toContain(INVOICE_FOLDER_MEMORY)
      expect(errors).toHaveLength(1)
      expect(errors[0]).toContain('answered HTTP 503')
    } finally {
      failing = false
      await cleanup()
    }
  })

  it('a store without an embedder, or one whose settings are off, chooses by words', async () => {
    const { store, cleanup } = await storeWith(['Anna is on vacation in August'])
    try {
      expect(await nearestByMeaning(store, 'holiday')).toBeUndefined()
    } finally {
      await cleanup()
    }
    const dir = await mkdtemp(join(tmpdir(), 'bureau-memory-vectors-'))
    try {
      const off = openMemoryStore({ dataDir: dir, embedder: async () => undefined })
      expect(await nearestByMeaning(off, 'holiday')).toBeUndefined()
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('an embedder that answers with the wrong number of vectors is an error, not a wrong ranking', async () => {
    const broken: TextEmbedder = { id: 'broken', embed: async (texts) => texts.slice(1).map(() => [1, 0]) }
    const { store, cleanup } = await storeWith(['Anna is on vacation in August'], broken)
    try {
      const errors: string[] = []
      const nearest = await nearestByMeaning(store, 'holiday', (error) => errors.push(String(error)))
      if (!nearest) expect.fail('an embedder is set')
      expect(await nearest((await store.snapshot()).memories)).toEqual([])
      expect(errors[0]).toContain('returned 1 vectors for 2 texts')
    } finally {
      await cleanup()
    }
  })
})

describe('fusing the word and the meaning rankings', () => {
  it('puts what both found first, keeps what either found, and breaks ties by the word ranking', () => {
    expect(fuseRankings([3, 1, 2], [1, 5])).toEqual([1, 3, 5, 2])
    expect(fuseRankings([], [4, 2])).toEqual([4, 2])
    expect(fuseRankings([7, 8], [])).toEqual([7, 8])
  })
})
