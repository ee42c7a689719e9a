import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { getLlama, type Llama, LlamaChatSession, type LlamaModel, readGgufFileInfo } from 'node-llama-cpp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tinyLlamaModel } from '../../scripts/tinyLlamaModel'
import { tempDirs } from '../support/tempDir'

const dirs = tempDirs('bureau-tiny-llama-')
let path: string
let bytes: Buffer
let llama: Llama
let model: LlamaModel

beforeAll(async () => {
  bytes = tinyLlamaModel()
  path = join(await dirs.make(), 'tiny.gguf')
  await writeFile(path, bytes)
}, 30_000)

afterAll(async () => {
  await model?.dispose()
  await llama?.dispose()
  await dirs.cleanup()
})

describe('scripts/tinyLlamaModel.ts: a tiny random-weights llama GGUF of the project', () => {
  it('writes the same bytes for the same seed, other bytes for another, a few hundred KB', () => {
    expect(tinyLlamaModel().equals(bytes)).toBe(true)
    expect(tinyLlamaModel({ seed: 7 }).equals(bytes)).toBe(false)
    // Larger than six cuts of 64 KiB: the download tests resume it and must still be short of the end.
    expect(bytes.length).toBeGreaterThan(6 * 64 * 1024)
    expect(bytes.length).toBeLessThan(600 * 1024)
    expect(() => tinyLlamaModel({ embedding: 30, heads: 4 })).toThrow(/do not split into 4 heads/)
  })

  it('is a GGUF v3 llama model with the metadata llama.cpp reads, a consistent vocabulary and a chat template', {
    timeout: 30_000,
  }, async () => {
    const info = await readGgufFileInfo(path, { readTensorInfo: true })
    expect(info.version).toBe(3)
    const meta = info.metadata
    expect(meta.general.architecture).toBe('llama')
    expect(meta.llama).toMatchObject({
      context_length: 4096,
      embedding_length: 48,
      block_count: 2,
      attention: { head_count: 4, head_count_kv: 2 },
    })
    const tokenizer = meta.tokenizer.ggml
    expect(tokenizer.model).toBe('llama')
    const tokens = tokenizer.tokens as readonly string[]
    expect(tokenizer.scores).toHaveLength(tokens.length)
    expect(tokenizer.token_type).toHaveLength(tokens.length)
    expect(tokens[tokenizer.bos_token_id as number]).toBe('<s>')
    expect(tokens[tokenizer.eos_token_id as number]).toBe('</s>')
    expect(new Set(tokens).size).toBe(tokens.length)
    expect(tokens.filter((t) => /^<0x[0-9A-F]{2}>$/.test(t))).toHaveLength(256)
    expect(meta.tokenizer.chat_template).toContain('<|im_start|>')
    const tensors = info.fullTensorInfo ?? []
    // The token embedding, nine tensors per layer, the output norm and the output.
    expect(tensors).toHaveLength(2 + 2 * 9 + 1)
    expect(tensors.find((t) => t.name === 'output.weight')?.dimensions.map(Number)).toEqual([
      48,
      tokens.length,
    ])
  })

  it('node-llama-cpp loads it, tokenizes text, chats through its template and stops at the token budget', {
    timeout: 60_000,
  }, async () => {
    llama = await getLlama({ gpu: false, build: 'never', progressLogs: false })
    model = await llama.loadModel({ modelPath: path })
    expect(model.trainContextSize).toBe(4096)
    const text = 'Sum the cells of sheet 2, then say hello: ünïcødé!'
    expect(model.detokenize(model.tokenize(text)).trim()).toBe(text)

    const context = await model.createContext({ contextSize: 1024, threads: 1 })
    const session = new LlamaChatSession({ contextSequence: context.getSequence() })
    expect(session.chatWrapper.wrapperName).toBe('ChatML')
    let generated = 0
    const reply = await session.prompt('Say hello.', {
      maxTokens: 12,
      temperature: 0,
      onToken: (chunk) => {
        generated += chunk.length
      },
    })
    // Random weights: the words mean nothing, but tokens came out until the budget, never an end-of-turn.
    expect(generated).toBe(12)
    expect(reply.trim()).not.toBe('')
    await context.dispose()
  })
})
