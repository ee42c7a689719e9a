import { AppError } from '../../shared/errors'
import { contentTypeOf } from '../platform'
import type { EntryInfo, Workspace } from './types'

const MAX_DOWNLOAD_BYTES = 256 * 1024 * 1024
const LIST_LIMIT = 1000

export interface WorkspaceHandlerOptions {
  workspace: () => Workspace
  /** Opens (or reveals) a host path with the system app; only the desktop shell has one. Returns why it failed, if it did. */
  openPath?: (hostPath: string, reveal: boolean) => Promise<string | undefined>
}

const BACKUP = /^(.+)\.(\d{3,})\.bak$/
const SEARCH_LIMIT = 200

function entryOf(entry: EntryInfo) {
  return {
    path: entry.path,
    name: entry.name,
    type: entry.type,
    size: entry.size ?? 0,
    modifiedAt: entry.modified,
  }
}

type Entry = ReturnType<typeof entryOf> & { backupOf?: { path: string; number: number } }

/** Marks each numbered backup with the file it backs up (asked of the workspace, which keeps the record). */
async function labelBackups(workspace: Workspace, entries: EntryInfo[]): Promise<Entry[]> {
  const out: Entry[] = entries.map(entryOf)
  const stems = new Set(
    entries.filter((e) => e.type === 'file').flatMap((e) => BACKUP.exec(e.name)?.[1] ?? []),
  )
  if (stems.size === 0) return out
  const byBackup = new Map<string, { path: string; number: number }>()
  for (const file of entries) {
    if (file.type !== 'file' || BACKUP.test(file.name)) continue
    const dot = file.name.lastIndexOf('.')
    if (!stems.has(dot > 0 ? file.name.slice(0, dot) : file.name)) continue
    const backups = await workspace.listBackups(file.path).catch(() => [])
    for (const backup of backups) byBackup.set(backup.path, { path: file.path, number: backup.number })
  }
  for (const entry of out) {
    const of = byBackup.get(entry.path)
    if (of) entry.backupOf = of
  }
  return out
}

const parentOf = (path: string) => path.slice(0, path.lastIndexOf('/')) || '/'
const childOf = (folder: string, name: string) => `${folder.replace(/\/+$/, '')}/${name}`

/** The `workspace.*` routes over the workspace service: agent paths in, agent paths out. */
export function workspaceHandlers(options: WorkspaceHandlerOptions) {
  return {
    'workspace.list': async (input: { path: string }) => {
      const workspace = options.workspace()
      const listing = await workspace.list(input.path, { limit: LIST_LIMIT })
      return labelBackups(workspace, listing.entries)
    },
    'workspace.root': async () => ({ hostPath: options.workspace().root }),
    'workspace.upload': async (input: {
      folder: string
      name: string
      bytes: Uint8Array
      replace: boolean
    }) => {
      const workspace = options.workspace()
      const target = childOf(input.folder, input.name)
      if (!input.replace && (await workspace.exists(target)))
        throw new AppError('CONFLICT', `A file or folder called "${input.name}" is already in this folder.`)
      const receipt = await workspace.writeFile(target, input.bytes, {
        overwrite: input.replace,
        message: `upload ${target}`,
      })
      return entryOf(await workspace.stat(receipt.path))
    },
    'workspace.mkdir': async (input: { folder: string; name: string }) => {
      const workspace = options.workspace()
      const target = childOf(input.folder, input.name)
      if (await workspace.exists(target))
        throw new AppError('CONFLICT', `Something called "${input.name}" is already in this folder.`)
      const made = await workspace.mkdir(target)
      return entryOf(await workspace.stat(made.path))
    },
    'workspace.rename': async (input: { path: string; name: string }) => {
      const workspace = options.workspace()
      const target = childOf(parentOf(input.path), input.name)
      if (target === input.path) return entryOf(await workspace.stat(input.path))
      const moved = await workspace.move(input.path, target)
      return entryOf(await workspace.stat(moved.to))
    },
    'workspace.delete': async (input: { path: string }) => {
      const receipt = await options.workspace().delete(input.path)
      return { path: receipt.path, type: receipt.type, trashId: receipt.trashId }
    },
    'workspace.restoreDeleted': async (input: { trashId: string }) => {
      const workspace = options.workspace()
      const restored = await workspace.restoreDeleted(input.trashId)
      return entryOf(await workspace.stat(restored.path))
    },
    'workspace.search': async (input: { query: string }) => {
      const workspace = options.workspace()
      // Glob characters in the text match themselves loosely (any one character), never as patterns.
      const pattern = `*${input.query.replace(/[*?[\]{}\\]/g, '?')}*`
      const found = await workspace.find(pattern, { limit: SEARCH_LIMIT })
      return { entries: found.matches.map(entryOf), truncated: found.truncated }
    },
    'workspace.readFile': async (input: { path: string }) => {
      const workspace = options.workspace()
      const info = await workspace.stat(input.path)
      if (info.type !== 'file')
        throw new AppError('VALIDATION_FAILED', `${info.path} is a folder, not a file.`)
      if ((info.size ?? 0) > MAX_DOWNLOAD_BYTES)
        throw new AppError('TOO_LARGE', `${info.path} is larger than ${MAX_DOWNLOAD_BYTES / 2 ** 20} MB.`)
      const bytes = await workspace.readFile(input.path, { maxBytes: MAX_DOWNLOAD_BYTES })
      return { name: info.name, mimeType: contentTypeOf(info.name), bytes: new Uint8Array(bytes) }
    },
    'workspace.open': async (input: { path: string; reveal: boolean }) => {
      if (!options.openPath) {
        return {
          opened: false,
          reason: 'Opening files with their app works in the desktop app; here, download the file instead.',
        }
      }
      const hostPath = await options.workspace().resolve(input.path)
      const failure = await options.openPath(hostPath, input.reveal)
      return failure
        ? { opened: false, reason: `The system could not open the file: ${failure}` }
        : { opened: true }
    },
  }
}
