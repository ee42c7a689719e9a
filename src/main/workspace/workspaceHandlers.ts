import { AppError } from '../../shared/errors'
import { contentTypeOf } from '../platform'
import type { Workspace } from './types'

const MAX_DOWNLOAD_BYTES = 256 * 1024 * 1024
const LIST_LIMIT = 1000

export interface WorkspaceHandlerOptions {
  workspace: () => Workspace
  /** Opens (or reveals) a host path with the system app; only the desktop shell has one. Returns why it failed, if it did. */
  openPath?: (hostPath: string, reveal: boolean) => Promise<string | undefined>
}

/** The `workspace.*` routes over the workspace service: agent paths in, agent paths out. */
export function workspaceHandlers(options: WorkspaceHandlerOptions) {
  return {
    'workspace.list': async (input: { path: string }) => {
      const listing = await options.workspace().list(input.path, { limit: LIST_LIMIT })
      return listing.entries.map((entry) => ({
        path: entry.path,
        name: entry.name,
        type: entry.type,
        size: entry.size ?? 0,
        modifiedAt: entry.modified,
      }))
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
