import { z } from 'zod'

export const AgentPathArg = z
  .string()
  .describe('Workspace path: "/" is the workspace root, folders are separated by "/", e.g. "/notes/a.txt".')

export const Entry = z.object({
  path: z.string(),
  name: z.string(),
  type: z.enum(['file', 'directory']),
  size: z.number().int().optional().describe('Bytes (files only).'),
  modified: z.string().describe('ISO 8601 time of the last change.'),
})

export const WriteReceipt = z.object({
  path: z.string(),
  bytes: z.number().int(),
  created: z.boolean().describe('true when the file did not exist before.'),
  backup: z.string().optional().describe('Backup of the previous content, e.g. "/notes/a.001.bak".'),
  version: z.string().optional().describe('History version that recorded this change.'),
})

export const RestoreReceipt = WriteReceipt.extend({
  restored_from: z.string().describe('The backup file or history version the content came from.'),
})

export function restoreReceipt(receipt: z.input<typeof WriteReceipt> & { restoredFrom: string }) {
  const { restoredFrom, ...rest } = receipt
  return { ...rest, restored_from: restoredFrom }
}
