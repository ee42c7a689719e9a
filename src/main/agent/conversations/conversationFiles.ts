import { readdir, readFile, rm } from 'node:fs/promises'
import path from 'node:path'
import { writeFile } from 'atomically'
import { Conversation } from '../../../shared/ipc'

const SUFFIX = '.json'

/** One JSON file per conversation, named by its id (ids are `[A-Za-z0-9_-]`, so safe as file names). */
export function conversationFile(dir: string, id: string): string {
  return path.join(dir, `${id}${SUFFIX}`)
}

export async function listConversationIds(dir: string): Promise<string[]> {
  let names: string[]
  try {
    names = await readdir(dir)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
  return names.filter((name) => name.endsWith(SUFFIX)).map((name) => name.slice(0, -SUFFIX.length))
}

export type ReadOutcome =
  | { ok: true; conversation: Conversation }
  | { ok: false; reason: 'missing' | 'corrupt'; detail?: string }

export async function readConversationFile(dir: string, id: string): Promise<ReadOutcome> {
  let text: string
  try {
    text = await readFile(conversationFile(dir, id), 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: false, reason: 'missing' }
    throw error
  }
  try {
    const parsed = Conversation.safeParse(JSON.parse(text))
    if (parsed.success) return { ok: true, conversation: parsed.data }
    return { ok: false, reason: 'corrupt', detail: parsed.error.issues[0]?.message }
  } catch (error) {
    return { ok: false, reason: 'corrupt', detail: error instanceof Error ? error.message : String(error) }
  }
}

/** Atomic: temp file, fsync, rename; readers see the old or the new conversation, never half of one. */
export async function writeConversationFile(dir: string, conversation: Conversation): Promise<void> {
  await writeFile(conversationFile(dir, conversation.id), `${JSON.stringify(conversation, null, 1)}\n`, {
    encoding: 'utf8',
    fsync: true,
  })
}

export async function removeConversationFile(dir: string, id: string): Promise<boolean> {
  try {
    await rm(conversationFile(dir, id))
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false
    throw error
  }
}
