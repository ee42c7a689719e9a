import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import OpenAI from 'openai'
import { runCli, startCli } from '../test/support/builtCli'
import { type ScriptedLlm, startScriptedLlm } from '../test/support/scriptedLlm'
import { scriptedProviderEnv } from '../test/support/scriptedProviderEnv'
import type { BenchRow } from './types'

// 20 concurrent streaming clients through the OpenAI bridge of a real `bureau serve`, against the
// scripted LLM, compared with the same 20 clients calling the scripted server directly.

const CLIENTS = 20
const ROUNDS = 3
const WORDS = 40
const CHUNK_DELAY_MS = 5
const ANSWER = Array.from({ length: WORDS }, (_, i) => `word${i}`).join(' ')

interface Sample {
  firstTokenMs: number
  totalMs: number
}

interface RoundResult {
  samples: Sample[]
  errors: string[]
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  if (sorted.length === 0) return Number.NaN
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[index] ?? Number.NaN
}

async function streamOnce(client: OpenAI, model: string): Promise<Sample> {
  const started = performance.now()
  let firstTokenMs = Number.NaN
  let text = ''
  let finishes = 0
  const stream = await client.chat.completions.create({
    model,
    stream: true,
    messages: [{ role: 'user', content: 'Say the words.' }],
  })
  for await (const chunk of stream) {
    const content = chunk.choices[0]?.delta.content
    if (content && Number.isNaN(firstTokenMs)) firstTokenMs = performance.now() - started
    text += content ?? ''
    if (chunk.choices[0]?.finish_reason) finishes++
  }
  if (text !== ANSWER) throw new Error(`wrong text (${text.length} chars)`)
  if (finishes !== 1) throw new Error(`${finishes} finish_reason chunks`)
  return { firstTokenMs, totalMs: performance.now() - started }
}

async function round(client: OpenAI, model: string): Promise<RoundResult> {
  const settled = await Promise.allSettled(Array.from({ length: CLIENTS }, () => streamOnce(client, model)))
  return {
    samples: settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : [])),
    errors: settled.flatMap((s) => (s.status === 'rejected' ? [String(s.reason)] : [])),
  }
}

async function rounds(client: OpenAI, model: string): Promise<RoundResult> {
  await round(client, model) // warm-up: lazy imports, first connections
  const all: RoundResult = { samples: [], errors: [] }
  for (let i = 0; i < ROUNDS; i++) {
    const result = await round(client, model)
    all.samples.push(...result.samples)
    all.errors.push(...result.errors)
  }
  return all
}

/** `bureau serve` on a free port with the scripted model as the active provider, once /v1 is up. */
function startServe(llm: ScriptedLlm, base: string, extra: string[]) {
  return startCli(
    ['serve', '--port', '0', '--data-dir', join(base, 'data'), '--workspace', join(base, 'ws'), ...extra],
    /OpenAI-compatible API at (http:\/\/127\.0\.0\.1:\d+)\/v1/,
    { env: scriptedProviderEnv(llm, 'sk-bench', { BUREAU_INTERACTION_MODE: 'api', BUREAU_WORKSPACE: '' }) },
  )
}

/** Peak resident set size of a process (Linux VmHWM), in MiB. */
async function peakRssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1])
  return kb / 1024
}

export default async function bridgeBench(): Promise<BenchRow[]> {
  const llm = await startScriptedLlm()
  llm.setResponder(() => ({ text: ANSWER, chunkDelayMs: CHUNK_DELAY_MS }))
  const base = await mkdtemp(join(tmpdir(), 'bureau-bench-bridge-'))
  const rows: BenchRow[] = [
    {
      name: 'machine load average (1 min) at start',
      value: loadavg()[0] ?? Number.NaN,
      unit: '',
      note: 'bench client, scripted server and serve share the cores: read the latencies against this',
    },
  ]
  try {
    const created = await runCli(['bridge', 'token', 'create', 'bench', '--data-dir', join(base, 'data')])
    if (created.code !== 0) throw new Error(`bridge token create exited ${created.code}: ${created.stderr}`)
    const token = created.stdout.trim()
    const direct = await rounds(
      new OpenAI({ apiKey: 'sk-bench', baseURL: llm.baseUrl, maxRetries: 0 }),
      'scripted-model',
    )
    const directFirst = direct.samples.map((s) => s.firstTokenMs)
    const directTotal = direct.samples.map((s) => s.totalMs)

    const measure = async (label: string, model: string, extra: string[]) => {
      const serve = await startServe(llm, base, extra)
      try {
        const client = new OpenAI({
          apiKey: token,
          baseURL: `${serve.match[1]}/v1`,
          maxRetries: 0,
          timeout: 120_000,
        })
        const result = await rounds(client, model)
        const first = result.samples.map((s) => s.firstTokenMs)
        const total = result.samples.map((s) => s.totalMs)
        const expected = (ROUNDS + 1) * CLIENTS
        const note = `${result.samples.length}/${ROUNDS * CLIENTS} streams ok${result.errors[0] ? `; first error: ${result.errors[0]}` : ''}`
        rows.push(
          {
            name: `${label}: streams with errors`,
            value: result.errors.length,
            unit: 'streams',
            target: '0',
            pass: result.errors.length === 0 && result.samples.length === ROUNDS * CLIENTS,
            note,
          },
          {
            name: `${label}: added latency to first token p50`,
            value: percentile(first, 50) - percentile(directFirst, 50),
            unit: 'ms',
            note: `bridge ${percentile(first, 50).toFixed(1)} vs direct ${percentile(directFirst, 50).toFixed(1)}`,
          },
          {
            name: `${label}: added latency to first token p95`,
            value: percentile(first, 95) - percentile(directFirst, 95),
            unit: 'ms',
            note: `bridge ${percentile(first, 95).toFixed(1)} vs direct ${percentile(directFirst, 95).toFixed(1)}`,
          },
          {
            name: `${label}: added latency to the end of the stream p50`,
            value: percentile(total, 50) - percentile(directTotal, 50),
            unit: 'ms',
            note: `bridge ${percentile(total, 50).toFixed(1)} vs direct ${percentile(directTotal, 50).toFixed(1)}`,
          },
          {
            name: `${label}: added latency to the end of the stream p95`,
            value: percentile(total, 95) - percentile(directTotal, 95),
            unit: 'ms',
            note: `bridge ${percentile(total, 95).toFixed(1)} vs direct ${percentile(directTotal, 95).toFixed(1)}`,
          },
          {
            name: `${label}: serve peak RSS`,
            value: await peakRssMiB(serve.child.pid ?? 0),
            unit: 'MiB',
            note: `after ${expected} streams (incl. a warm-up round)`,
          },
        )
      } finally {
        await serve.stop()
      }
    }

    rows.push({
      name: 'direct to scripted server: first token p50 / p95',
      value: percentile(directFirst, 50),
      unit: 'ms',
      note: `p95 ${percentile(directFirst, 95).toFixed(1)} ms; end of stream p50 ${percentile(directTotal, 50).toFixed(1)} ms (${WORDS} chunks, ${CHUNK_DELAY_MS} ms apart); ${direct.errors.length} errors`,
    })
    await measure('bureau-chat, 20 running', 'bureau-chat', ['--bridge-max-concurrent', '20'])
    await measure('bureau-agent, 20 running', 'bureau-agent', ['--bridge-max-concurrent', '20'])
    await measure('bureau-agent, default limits (4 running, up to 32 queued)', 'bureau-agent', [])
  } finally {
    await llm.close()
    await rm(base, { recursive: true, force: true })
  }
  return rows
}
