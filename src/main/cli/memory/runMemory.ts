import { readFile, writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { AppError } from '../../../shared/errors'
import type { Memory } from '../../../shared/memory'
import { type MemoryStore, openMemoryStore, workspaceScope } from '../../memory'
import { defaultDataDir } from '../../platform'
import type { MemoryCliOptions } from '../commandOptions'
import { processTextIo, type TextIo } from '../textIo'

function open(options: MemoryCliOptions, io: TextIo): MemoryStore {
  return openMemoryStore({
    dataDir: options.dataDir ?? defaultDataDir(),
    onDamaged: (movedTo) => io.err(`warning: memories.json could not be read; kept as ${movedTo}\n`),
  })
}

function scopeLabel(memory: Memory): string {
  return memory.scope.kind === 'everywhere' ? 'everywhere' : `workspace ${memory.scope.folder}`
}

/** `bureau memory list`: id, scope and text per line (newest first, or best first with --query). */
export async function runMemoryList(options: MemoryCliOptions, io: TextIo = processTextIo): Promise<void> {
  const store = open(options, io)
  const memories = await store.list({
    query: options.query,
    ...(options.workspace ? { workspace: resolve(options.workspace) } : {}),
  })
  const preferences = await store.preferences()
  if (options.json) {
    io.out(`${JSON.stringify({ paused: preferences.paused, memories }, null, 2)}\n`)
    return
  }
  if (preferences.paused) io.out('Memory is paused: nothing is added to prompts (bureau memory resume).\n')
  if (memories.length === 0) {
    io.out('No memories.\n')
    return
  }
  for (const memory of memories) io.out(`${memory.id}  [${scopeLabel(memory)}]  ${memory.text}\n`)
}

/** `bureau memory add TEXT`: stores it (secrets refused) and prints it as stored. */
export async function runMemoryAdd(
  text: string,
  options: MemoryCliOptions,
  io: TextIo = processTextIo,
): Promise<void> {
  const memory = await open(options, io).add({
    text,
    scope: options.workspace ? workspaceScope(options.workspace) : { kind: 'everywhere' },
    source: { kind: 'cli' },
  })
  if (options.json) io.out(`${JSON.stringify(memory, null, 2)}\n`)
  else io.out(`Remembered ${memory.id} [${scopeLabel(memory)}]: ${memory.text}\n`)
}

export async function runMemoryRemove(
  ids: string[],
  options: MemoryCliOptions,
  io: TextIo = processTextIo,
): Promise<void> {
  const store = open(options, io)
  for (const id of ids) {
    const removed = await store.remove(id)
    io.out(`Forgot ${removed.id}: ${removed.text}\n`)
  }
}

export async function runMemoryPause(
  paused: boolean,
  options: MemoryCliOptions,
  io: TextIo = processTextIo,
): Promise<void> {
  const preferences = await open(options, io).setPreferences({ paused })
  io.out(
    preferences.paused
      ? 'Memory paused: nothing is added to prompts and the model cannot store anything.\n'
      : 'Memory resumed.\n',
  )
}

/** `bureau memory export [file]`: the JSON export to the file, or to stdout. */
export async function runMemoryExport(
  file: string | undefined,
  options: MemoryCliOptions,
  io: TextIo = processTextIo,
): Promise<void> {
  const exported = await open(options, io).exportAll()
  const json = `${JSON.stringify(exported, null, 2)}\n`
  if (!file || file === '-') {
    io.out(json)
    return
  }
  await writeFile(resolve(file), json, { mode: 0o600 })
  io.err(`Exported ${exported.memories.length} memories to ${file}\n`)
}

export async function runMemoryImport(
  file: string,
  options: MemoryCliOptions,
  io: TextIo = processTextIo,
): Promise<void> {
  let text: string
  try {
    text = await readFile(resolve(file), 'utf8')
  } catch (error) {
    throw new AppError(
      'NOT_FOUND',
      `Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}.`,
      { cause: error },
    )
  }
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    throw new AppError('VALIDATION_FAILED', `${file} is not JSON: nothing was imported.`)
  }
  const report = await open(options, io).importAll(data)
  if (options.json) io.out(`${JSON.stringify(report)}\n`)
  else
    io.out(
      `Imported ${report.added} memories; ${report.skipped} already there, ${report.refused} refused (they looked like secrets).\n`,
    )
}
