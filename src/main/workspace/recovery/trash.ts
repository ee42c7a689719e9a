import { randomBytes } from 'node:crypto'
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { z } from 'zod'
import { workspaceError } from '../errors'
import { ensureInternalFolder } from '../internalFolder'

export const TrashEntry = z.object({
  id: z.string(),
  /** Agent path the item had before it was deleted. */
  originalPath: z.string(),
  type: z.enum(['file', 'directory']),
  deletedAt: z.string(),
})
export type TrashEntry = z.infer<typeof TrashEntry>

const ID = /^[0-9]{8}T[0-9]{9}Z-[0-9a-f]{6}$/

/**
 * Deleted items go to `.bureau/trash/<id>/<name>` with `<id>.json` beside them, so a delete can be undone.
 * Moves are renames inside the workspace: instant, and nothing is copied.
 */
export class Trash {
  constructor(private readonly folder: string) {}

  async put(hostPath: string, originalPath: string, type: TrashEntry['type']): Promise<TrashEntry> {
    const now = new Date()
    const id = `${now.toISOString().replace(/[-:.]/g, '')}-${randomBytes(3).toString('hex')}`
    const slot = await ensureInternalFolder(
      path.dirname(this.folder),
      path.join(path.basename(this.folder), id),
    )
    await rename(hostPath, path.join(slot, path.basename(hostPath)))
    const entry: TrashEntry = { id, originalPath, type, deletedAt: now.toISOString() }
    await writeFile(path.join(this.folder, `${id}.json`), `${JSON.stringify(entry)}\n`)
    return entry
  }

  /** Newest first. Entries with a broken record are skipped. */
  async list(): Promise<TrashEntry[]> {
    const names = await readdir(this.folder).catch(() => [] as string[])
    const entries = await Promise.all(
      names.filter((name) => name.endsWith('.json')).map((name) => this.readEntry(name.slice(0, -5))),
    )
    return entries
      .filter((entry): entry is TrashEntry => entry !== undefined)
      .sort((a, b) => b.id.localeCompare(a.id))
  }

  /** Moves the item back to `targetHostPath` (which the caller has resolved and checked is free). */
  async takeOut(id: string, targetHostPath: string): Promise<TrashEntry> {
    const entry = ID.test(id) ? await this.readEntry(id) : undefined
    if (!entry)
      throw workspaceError('NOT_FOUND', `Nothing in the trash has id "${id}"; list the trash first.`)
    const slot = path.join(this.folder, id)
    const [name] = await readdir(slot)
    if (name === undefined) throw workspaceError('NOT_FOUND', `Trash item "${id}" is empty.`)
    await mkdir(path.dirname(targetHostPath), { recursive: true })
    await rename(path.join(slot, name), targetHostPath)
    await rm(slot, { recursive: true, force: true })
    await rm(path.join(this.folder, `${id}.json`), { force: true })
    return entry
  }

  async entry(id: string): Promise<TrashEntry | undefined> {
    return ID.test(id) ? this.readEntry(id) : undefined
  }

  private async readEntry(id: string): Promise<TrashEntry | undefined> {
    try {
      return TrashEntry.parse(JSON.parse(await readFile(path.join(this.folder, `${id}.json`), 'utf8')))
    } catch {
      return undefined
    }
  }
}
