import type { ImapFlow, ListResponse } from 'imapflow'
import { AppError } from '../../../shared/errors'

export interface FolderInfo {
  path: string
  name: string
  special_use?: string | undefined
  messages?: number | undefined
  unseen?: number | undefined
}

export async function listFolders(client: ImapFlow): Promise<FolderInfo[]> {
  const folders = await client.list({ statusQuery: { messages: true, unseen: true } })
  return folders.map((folder: ListResponse) => ({
    path: folder.path,
    name: folder.name,
    ...(folder.specialUse ? { special_use: folder.specialUse } : {}),
    ...(folder.status?.messages !== undefined ? { messages: folder.status.messages } : {}),
    ...(folder.status?.unseen !== undefined ? { unseen: folder.status.unseen } : {}),
  }))
}

/** The folder with a special use (`\Drafts`, `\Sent`), else one of the usual names; created when `create`. */
export async function specialFolder(
  client: ImapFlow,
  use: '\\Drafts' | '\\Sent',
  create: boolean,
): Promise<string | undefined> {
  const folders = await client.list()
  const names = use === '\\Drafts' ? ['drafts', 'draft'] : ['sent', 'sent items', 'sent messages']
  const found =
    folders.find((folder) => folder.specialUse === use) ??
    folders.find((folder) => names.includes(folder.name.toLowerCase()))
  if (found) return found.path
  if (!create) return undefined
  const path = use === '\\Drafts' ? 'Drafts' : 'Sent'
  await client.mailboxCreate(path)
  return path
}

/** Move and mark name a folder that must exist: say so plainly instead of the server's TRYCREATE. */
export async function requireFolder(client: ImapFlow, path: string): Promise<void> {
  const folders = await client.list()
  if (!folders.some((folder) => folder.path === path))
    throw new AppError('NOT_FOUND', `There is no folder "${path}"; list_folders shows the folders.`)
}
