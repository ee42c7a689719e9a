import { z } from 'zod'
import { route } from '../defineContract'
import { Binary } from './chat'

/** An agent path: `/` is the workspace folder. The host path is never sent to the renderer. */
export const AgentPathInput = z.string().min(1).max(4096)

export const WorkspaceEntry = z.object({
  path: z.string(),
  name: z.string(),
  type: z.enum(['file', 'directory']),
  size: z.number().int().nonnegative(),
  modifiedAt: z.string(),
  /** A numbered backup Bureau keeps (`report.003.bak`): the file it is a copy of, and its number. */
  backupOf: z.object({ path: z.string(), number: z.number().int().positive() }).optional(),
})
export type WorkspaceEntry = z.infer<typeof WorkspaceEntry>

/** A name typed by the user for a new file or folder, or a rename: one path segment. */
export const EntryName = z
  .string()
  .trim()
  .min(1, 'Enter a name.')
  .max(255, 'At most 255 characters.')
  .refine((name) => !/[\\/]/.test(name), 'A name cannot contain / or \\.')
  .refine((name) => name !== '.' && name !== '..', 'Choose another name.')

export const workspaceRoutes = {
  'workspace.list': route({
    summary: 'Entries of a workspace folder (agent paths).',
    input: z.object({ path: AgentPathInput.default('/') }),
    output: z.array(WorkspaceEntry),
  }),
  'workspace.readFile': route({
    summary: 'The bytes of a workspace file, e.g. to download a file the agent returned.',
    input: z.object({ path: AgentPathInput }),
    output: z.object({ name: z.string(), mimeType: z.string(), bytes: Binary }),
  }),
  'workspace.root': route({
    summary: 'Where the workspace folder is on this computer, shown to the user (never to a model).',
    input: z.void(),
    output: z.object({ hostPath: z.string() }),
  }),
  'workspace.upload': route({
    summary: 'Saves a file the user chose into a workspace folder; answers with the entry read back.',
    input: z.object({
      folder: AgentPathInput,
      name: EntryName,
      bytes: Binary,
      /** Replace a file of that name (its old content is backed up first). */
      replace: z.boolean().default(false),
    }),
    output: WorkspaceEntry,
  }),
  'workspace.mkdir': route({
    summary: 'Creates a folder; answers with the entry read back.',
    input: z.object({ folder: AgentPathInput, name: EntryName }),
    output: WorkspaceEntry,
  }),
  'workspace.rename': route({
    summary: 'Renames a file or folder in place; answers with the entry read back.',
    input: z.object({ path: AgentPathInput, name: EntryName }),
    output: WorkspaceEntry,
  }),
  'workspace.delete': route({
    summary: "Moves a file or folder to the workspace's trash; `trashId` undoes it.",
    input: z.object({ path: AgentPathInput }),
    output: z.object({ path: z.string(), type: z.enum(['file', 'directory']), trashId: z.string() }),
  }),
  'workspace.restoreDeleted': route({
    summary: 'Brings a deleted file or folder back from the trash to where it was.',
    input: z.object({ trashId: z.string().min(1).max(200) }),
    output: WorkspaceEntry,
  }),
  'workspace.search': route({
    summary: 'Files and folders whose name contains the text, in the whole workspace (at most 200).',
    input: z.object({ query: z.string().trim().min(1).max(200) }),
    output: z.object({ entries: z.array(WorkspaceEntry), truncated: z.boolean() }),
  }),
  'workspace.open': route({
    summary: 'Opens a workspace file with the system app (desktop only).',
    input: z.object({ path: AgentPathInput, reveal: z.boolean().default(false) }),
    output: z.object({ opened: z.boolean(), reason: z.string().optional() }),
  }),
}

export const workspaceEvents = {
  /** Files changed in the workspace (agent paths, debounced); `.bureau/` is never reported. */
  'workspace.changed': z.object({ paths: z.array(z.string()) }),
}
